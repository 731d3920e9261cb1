/**
 * Issue 29, item 1, in the app: the Pages view lists a space's reusable content after its pages,
 * renders it with its variables' values, and marks an include edited here as held with the line
 * `quire sync` says (it can only be changed in GitBook's editor).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MemoryTokenStore } from '../../../src/main/core/secrets';
import { createQuireService, type QuireService } from '../../../src/main/hosts/service';
import { startFakeApi, type FakeApi } from '../../fake';
import { doc, expression, hint, p } from '../../helpers/gitbook-document';

const NOTE = 'rcNote00000000000001';

let fake: FakeApi;
let service: QuireService;
let spaceId: string;
let dir: string;
beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  const space = fake.store.addSpace(org.id, {
    title: 'Handbook',
    variables: { product: 'Lumen' },
    pages: [{ title: 'Intro', markdown: `Read this.\n\n{% include "/reusable-content/${NOTE}" %}\n` }],
  });
  fake.store.addReusableContent(space.id, {
    id: NOTE,
    title: 'Support note',
    document: doc(hint('info', p('Ask the ', expression('space.vars.product'), ' team.'))),
  });
  spaceId = space.id;
  dir = await mkdtemp(join(tmpdir(), 'quire-service-includes-'));
  service = await createQuireService({
    apiUrl: fake.url,
    folder: dir,
    tokens: new MemoryTokenStore(),
    host: { kind: 'web', openExternal: async () => undefined, openPath: async () => undefined },
    syncIntervalMs: 0,
    api: { maxAttempts: 1, timeoutMs: 5000 },
  });
  await service.request('session.signIn', { apiUrl: fake.url, token: fake.token });
  await service.request('catalog.refresh', {});
  await service.request('spaces.select', { spaceIds: [spaceId], selected: true });
  expect((await service.syncOnce()).state).toBe('in-sync');
});
afterEach(async () => {
  await service.close();
  await fake.close();
});

it('lists reusable content after the pages, renders it with its values, and marks an include edited here as held', async () => {
  const tree = await service.request('pages.tree', {});
  const group = tree[0]!.pages.at(-1)!;
  expect(group).toMatchObject({ title: 'Reusable content', kind: 'group', path: null });
  expect(group.children).toEqual([expect.objectContaining({ title: 'Support note', path: '.gitbook/includes/support-note.md', sync: 'synced' })]);
  const note = await service.request('pages.get', { spaceId, path: '.gitbook/includes/support-note.md' });
  expect(note.html).toContain('<span class="gb-expression" title="space.vars.product">Lumen</span>');
  const intro = await service.request('pages.get', { spaceId, path: 'README.md' });
  expect(intro.html).toContain('Reusable content · Support note');

  const folder = join(dir, (await service.request('catalog.get', {})).spaces[0]!.folder!);
  // A page an older Quire wrote keeps the include as GitBook stores it: the preview finds the file all the same.
  await writeFile(join(folder, 'legacy.md'), `# Legacy\n\n{% include "/reusable-content/${NOTE}" %}\n`);
  expect((await service.request('pages.get', { spaceId, path: 'legacy.md' })).html).toContain('Reusable content · Support note');
  const file = join(folder, '.gitbook/includes/support-note.md');
  await writeFile(file, (await readFile(file, 'utf8')).replace('Ask the', 'Write to the'));
  expect((await service.syncOnce()).state).not.toBe('in-sync');
  const held = (await service.request('pages.tree', {}))[0]!.pages.at(-1)!.children[0]!;
  expect(held.sync).toBe('held');
  expect(held.why).toMatch(/only be changed in GitBook's editor/);
  expect((await service.request('pages.get', { spaceId, path: '.gitbook/includes/support-note.md' })).sync).toBe('held');
});
