/**
 * Issue 29, item 6: an organization's translations, run as users run them (the bundled `quire`,
 * its own process) against the fake: `quire translations` lists each one (source space → target
 * space, language, status, last run) and runs one again; `quire status` says of a translated
 * space that the next run replaces the edits made there.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi, type SpaceRec, type TranslationRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { rewritingProxy } from '../../helpers/rewriting-proxy';
import { buildCli, killStarted, startQuire, type Exited } from '../../helpers/cli-process';
import { syncOnce, write } from '../../helpers/sync';

beforeAll(() => buildCli(), 120_000);

let fake: FakeApi;
let root: string;
let handbook: SpaceRec;
let manuel: SpaceRec;
let fr: TranslationRec;
let de: TranslationRec;
const run = (...args: string[]): Promise<Exited> => startQuire(args, { QUIRE_TOKEN: fake.token }).exited;
const runs = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/run')).map((r) => r.path);

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  handbook = fake.store.addSpace(org.id, { title: 'Handbook', pages: [{ title: 'Welcome', markdown: 'Hello.\n' }] });
  manuel = fake.store.addSpace(org.id, { title: 'Manuel', pages: [{ title: 'Bienvenue', markdown: 'Bonjour.\n' }] });
  fr = fake.store.translations.add(org.id, { source: handbook.id, language: 'fr', target: manuel.id, runs: 3 });
  de = fake.store.translations.add(org.id, { source: handbook.id, language: 'de' });
  root = tempDir('quire-translations-');
  expect((await syncOnce(fake, root)).code).toBe(0);
});
afterEach(async () => {
  killStarted();
  await fake.close();
});

describe('quire translations', () => {
  it('lists each translation: source space → target space, language, status, last run', async () => {
    const listed = await run('translations', '--dir', root);
    expect(listed.code, listed.stderr).toBe(0);
    const lastRun = `${fr.updatedAt.slice(0, 16).replace('T', ' ')} UTC`;
    expect(listed.stdout).toBe(
      [
        'Acme: 2 translations',
        `  Handbook → Manuel, en → fr: completed, last run ${lastRun} (3 runs)  [${fr.id}]`,
        `  Handbook → (no target space yet), en → de: pending, never run  [${de.id}]`,
        '',
      ].join('\n'),
    );
    const json = JSON.parse((await run('translations', '--dir', root, '--json')).stdout) as { translations: unknown[] };
    expect(json.translations[0]).toEqual({
      id: fr.id,
      organizationId: handbook.orgId,
      source: { spaceId: handbook.id, title: 'Handbook', language: 'en' },
      target: { spaceId: manuel.id, title: 'Manuel' },
      language: 'fr',
      status: 'completed',
      lastRunAt: fr.updatedAt,
      runs: 3,
    });
  });

  it('runs a translation again, and says it needs the server when offline', async () => {
    const ran = await run('translations', '--dir', root, '--run', fr.id);
    expect(ran.code, ran.stderr).toBe(0);
    expect(runs()).toEqual([`/v1/orgs/${handbook.orgId}/translations/${fr.id}/run`]);
    expect(ran.stdout).toBe(`Translation Handbook → Manuel (fr): run requested; GitBook has it pending. When it runs, it replaces the edits made in Manuel.\n`);
    expect((await run('translations', '--dir', root)).stdout).toContain(`Handbook → Manuel, en → fr: pending`);

    fake.faults.offline = true;
    const offline = await run('translations', '--dir', root, '--run', fr.id);
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(
      /^quire translations: running a translation needs the server's answer, and the API is not reachable now \(.*\)\. Nothing was queued: run it again when online\.$/m,
    );
    const listed = await run('translations', '--dir', root);
    expect(listed.code).toBe(0);
    expect(listed.stderr).toMatch(/^Showing the local mirror, last refreshed \d{4}-\d\d-\d\d \d\d:\d\d UTC \(/m);
    expect(listed.stdout).toContain('Handbook → Manuel, en → fr: pending');
  });

  it('refuses to run a translation the organization does not have', async () => {
    const missing = await run('translations', '--dir', root, '--run', 'trans_nope');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(`quire translations: no translation trans_nope in the organizations this folder knows; \`quire translations\` lists them.\n`);
    expect(runs()).toEqual([]);
  });
});

describe('quire status of a translated space', () => {
  it('says the next run replaces local edits made there, from what the sync listed', async () => {
    write(root, 'manuel/README.md', '# Bienvenue\n\nBonjour, édité ici.\n');
    const status = await run('status', '--dir', root);
    expect(status.stdout).toMatch(
      /Manuel \(\S+\) in manuel: [^\n]*\n(?: {2}[^\n]*\n)*? {2}translated from Handbook \(en → fr\): the next translation run replaces the edits made here, pushed or not\n/,
    );
    expect(status.stdout.match(/translated from/g)).toHaveLength(1);
    const json = JSON.parse((await run('status', '--dir', root, '--json')).stdout) as { spaces: { spaceId: string; translation: unknown }[] };
    expect(json.spaces.find((s) => s.spaceId === manuel.id)?.translation).toEqual({
      id: fr.id,
      sourceSpaceId: handbook.id,
      sourceTitle: 'Handbook',
      sourceLanguage: 'en',
      language: 'fr',
      status: 'completed',
      lastRunAt: fr.updatedAt,
    });
    expect(json.spaces.find((s) => s.spaceId === handbook.id)?.translation).toBeNull();
  });

  it('takes a translation without its source space for what it is: a malformed answer, said in one line; the last list stands', async () => {
    const proxy = await rewritingProxy(fake.url, (x) => {
      if (x.method !== 'GET' || !x.path.endsWith('/translations')) return undefined;
      const body = JSON.parse(x.body.toString('utf8')) as { items: Record<string, unknown>[] };
      delete body.items[0]!.source;
      return { body: JSON.stringify(body) };
    });
    try {
      const synced = await run('sync', '--api', proxy.url, '--dir', root, '--once');
      expect(synced.code, synced.stderr).toBe(0);
      const listed = await run('translations', '--dir', root);
      expect(listed.code).toBe(0);
      expect(listed.stderr).toMatch(/^Showing the local mirror, last refreshed .* \(.*`items\[0\]\.source` is missing \(expected an object\).*\)$/m);
      expect(listed.stdout).toContain('Handbook → Manuel, en → fr: completed');
      expect((await run('status', '--dir', root)).stdout).toContain('translated from Handbook (en → fr)');
    } finally {
      await proxy.close();
    }
  });
});
