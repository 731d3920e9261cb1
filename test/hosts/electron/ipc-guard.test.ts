import { describe, expect, it } from 'vitest';
import { APP_ORIGIN, handleIpcMessage, senderRejection, type SenderInfo } from '../../../src/main/hosts/electron/ipc-guard';
import { QuireError, type ContractService, type Params, type RequestName } from '../../../src/shared/contract';

const good: SenderInfo = { frameUrl: `${APP_ORIGIN}/index.html#review`, isMainFrame: true, isOwnWindow: true };

function recordingService() {
  const calls: { name: RequestName; params: unknown }[] = [];
  const service: ContractService = {
    async request<N extends RequestName>(name: N, params: Params<N>) {
      calls.push({ name, params });
      if (name === 'review.merge') throw new QuireError('forbidden', 'You may not merge this change request.');
      return { signedIn: false } as never;
    },
    subscribe: () => () => undefined,
  };
  return { service, calls };
}

describe('IPC sender checks', () => {
  it('accepts only the app origin, the main frame and our own window', () => {
    expect(senderRejection(good)).toBeNull();
    expect(senderRejection({ ...good, frameUrl: 'https://evil.example/' })).toMatch(/origin https:\/\/evil.example is not app:\/\/quire/);
    expect(senderRejection({ ...good, frameUrl: 'file:///etc/passwd' })).toMatch(/is not app:\/\/quire/);
    expect(senderRejection({ ...good, frameUrl: 'app://other/index.html' })).toMatch(/app:\/\/other is not/);
    expect(senderRejection({ ...good, isMainFrame: false })).toMatch(/sub-frame/);
    expect(senderRejection({ ...good, isOwnWindow: false })).toMatch(/not Quire/);
    expect(senderRejection({ ...good, frameUrl: null })).toMatch(/no URL/);
    expect(senderRejection({ ...good, frameUrl: 'not a url' })).toMatch(/is not a URL/);
  });
});

describe('IPC messages', () => {
  it('runs a valid request from the window', async () => {
    const { service, calls } = recordingService();
    const log: string[] = [];
    const outcome = await handleIpcMessage(service, 'quire:session.get', {}, good, (l) => log.push(l));
    expect(outcome).toEqual({ ok: true, result: { signedIn: false } });
    expect(calls).toEqual([{ name: 'session.get', params: {} }]);
    expect(log).toEqual([]);
  });

  it('refuses and logs, with the reason, anything else without calling the service', async () => {
    const { service, calls } = recordingService();
    const log: string[] = [];
    const cases: [string, unknown, SenderInfo, RegExp][] = [
      ['other:session.get', {}, good, /not a quire: channel/],
      ['quire:shell.exec', {}, good, /unknown request/],
      ['quire:session.get', {}, { ...good, frameUrl: 'https://evil.example/' }, /origin https:\/\/evil.example/],
      ['quire:session.get', {}, { ...good, isMainFrame: false }, /sub-frame/],
      ['quire:session.signIn', { apiUrl: 'https://api.example.com' }, good, /token: expected a string/],
      ['quire:session.signIn', { apiUrl: 'javascript:alert(1)', token: 't' }, good, /apiUrl: has an unexpected format/],
      ['quire:conflicts.resolve', { spaceId: 's', path: 'a.md', choice: 'both' }, good, /choice: expected one of mine, theirs/],
      ['quire:spaces.select', { spaceIds: ['../x'], selected: true }, good, /spaceIds\[0\]: has an unexpected format/],
      ['quire:session.get', { extra: true }, good, /extra: is not an expected field/],
      ['quire:session.get', null, good, /expected an object, got null/],
      ['quire:session.get', Object.create({ polluted: true }), good, /plain object/],
    ];
    for (const [channel, payload, sender, reason] of cases) {
      const outcome = await handleIpcMessage(service, channel, payload, sender, (l) => log.push(l));
      expect(outcome.ok, channel).toBe(false);
      if (!outcome.ok) expect(outcome.error.code).toBe('invalid-request');
      expect(log.at(-1), channel).toMatch(reason);
      expect(log.at(-1)).toMatch(/^ipc: refused /);
    }
    expect(calls).toEqual([]);
  });

  it('carries a service error as an outcome instead of throwing across IPC', async () => {
    const { service } = recordingService();
    const outcome = await handleIpcMessage(service, 'quire:review.merge', { spaceId: 's1', changeRequestId: 'cr1' }, good, () => undefined);
    expect(outcome).toEqual({ ok: false, error: { code: 'forbidden', message: 'You may not merge this change request.' } });
  });
});
