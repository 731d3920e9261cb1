/**
 * The watcher's paths into `.gitbook/` (continuous sync): an include or `vars.yaml` the writer
 * saved is held as `quire sync` holds it, never taken for a new page to push; a whole
 * `.gitbook/` folder reported at once is looked at the same way.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import type { FakeApi, SpaceRec } from '../../fake';
import { doc, p } from '../../helpers/gitbook-document';
import { contentBatches, read, syncedGuideEachTest } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest(
  (world) => {
    ({ fake, space, root, dir } = world);
  },
  (f, s) => {
    f.store.addReusableContent(s.id, { id: 'rcNote00000000000001', title: 'Note', document: doc(p('Shared text.')) });
    f.store.setVariables(s.id, { product: 'Lumen' });
  },
);

async function cycle(changed: string[]) {
  const mirror = Mirror.open(root);
  try {
    const api = new ApiClient({ baseUrl: fake.url, token: fake.token, maxAttempts: 2 });
    return await new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] } }).runCycle({ changed });
  } finally {
    mirror.close();
  }
}

it.each([
  ['the saved file', ['guide/.gitbook/includes/note.md', 'guide/.gitbook/vars.yaml']],
  ['its folder', ['guide/.gitbook']],
  ['the includes folder and vars.yaml', ['guide/.gitbook/includes', 'guide/.gitbook/vars.yaml']],
])('an include and vars.yaml saved here, the watcher naming %s, are held and never pushed as pages', async (_what, changed) => {
  expect(read(dir, '.gitbook/includes/note.md')).toBe('---\ntitle: Note\n---\n\nShared text.\n');
  writeFileSync(join(dir, '.gitbook/includes/note.md'), '---\ntitle: Note\n---\n\nMy text.\n');
  writeFileSync(join(dir, '.gitbook/vars.yaml'), 'product: Quire\n');
  const report = await cycle(changed);
  expect(report.spaces[0]!.notPushed.map((h) => ({ path: h.path, reason: h.reason }))).toEqual([
    { path: '.gitbook/includes/note.md', reason: 'reusable-content' },
    { path: '.gitbook/vars.yaml', reason: 'space-variables' },
  ]);
  expect(contentBatches(fake)).toEqual([]);
  expect(read(dir, '.gitbook/includes/note.md')).toBe('---\ntitle: Note\n---\n\nMy text.\n');
});
