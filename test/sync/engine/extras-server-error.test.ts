/**
 * One reusable content the server fails to give (a 500 after the client's retries) stops
 * neither the space's pages nor its other files: its file stays as it was, the log says so,
 * and the next cycle asks for it again although main has not moved since.
 */
import { expect, it } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import type { FakeApi, SpaceRec } from '../../fake';
import { doc, p } from '../../helpers/gitbook-document';
import { read, syncedGuideEachTest } from '../../helpers/sync';

const NOTE = 'rcNote00000000000001';
const TIP = 'rcTip000000000000001';
/** Every request for that content's document fails while `serverBroken` holds (whatever the client's retries). */
let serverBroken = true;
const failing = (id: string) => ({ match: (r: { path: string }) => serverBroken && r.path.endsWith(`/reusable-contents/${id}/document`) });

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest(
  (world) => {
    ({ fake, space, root, dir } = world);
    serverBroken = true;
  },
  (f, s) => f.store.addReusableContent(s.id, { id: NOTE, title: 'Note', document: doc(p('Shared text.')) }),
);

async function cycle() {
  const mirror = Mirror.open(root);
  try {
    const api = new ApiClient({ baseUrl: fake.url, token: fake.token, maxAttempts: 2 });
    const report = await new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] } }).runCycle({ changed: [] });
    return { report, log: mirror.log.recent(20).map((l) => l.message) };
  } finally {
    mirror.close();
  }
}

it('a changed reusable content the server fails to give keeps its file, lets the pages through, and is fetched again next cycle', async () => {
  const welcome = fake.store.pageByTitle(space.id, 'Welcome');
  fake.store.editPage(space.id, welcome.id, { markdown: 'Hello again, reader.\n' });
  fake.store.addReusableContent(space.id, { id: NOTE, title: 'Note', document: doc(p('Newer shared text.')) });
  fake.faults.fail(100, 500, failing(NOTE));

  const first = await cycle();
  expect(first.report.spaces[0]!.error).toBeUndefined();
  expect(read(dir, 'README.md')).toContain('Hello again, reader.');
  expect(read(dir, '.gitbook/includes/note.md')).toBe('---\ntitle: Note\n---\n\nShared text.\n');
  expect(first.log.some((m) => m.includes('.gitbook/includes/note.md') && m.includes('500'))).toBe(true);

  serverBroken = false;
  const second = await cycle(); // main has not moved since
  expect(second.report.spaces[0]!.error).toBeUndefined();
  expect(read(dir, '.gitbook/includes/note.md')).toBe('---\ntitle: Note\n---\n\nNewer shared text.\n');
});

it('a new reusable content the server fails to give is written at the next cycle, the pages not waiting for it', async () => {
  const welcome = fake.store.pageByTitle(space.id, 'Welcome');
  fake.store.editPage(space.id, welcome.id, { markdown: 'Hello again, reader.\n' });
  fake.store.addReusableContent(space.id, { id: TIP, title: 'Tip', document: doc(p('A tip.')) });
  fake.faults.fail(100, 500, failing(TIP));

  const first = await cycle();
  expect(first.report.spaces[0]!.error).toBeUndefined();
  expect(read(dir, 'README.md')).toContain('Hello again, reader.');
  expect(() => read(dir, '.gitbook/includes/tip.md')).toThrow();

  const again = await cycle();
  expect(again.report.spaces[0]!.error).toBeUndefined();
  expect(() => read(dir, '.gitbook/includes/tip.md')).toThrow(); // never an empty file in its place

  serverBroken = false;
  await cycle();
  expect(read(dir, '.gitbook/includes/tip.md')).toBe('---\ntitle: Tip\n---\n\nA tip.\n');
  expect(read(dir, '.gitbook/includes/note.md')).toBe('---\ntitle: Note\n---\n\nShared text.\n');
});
