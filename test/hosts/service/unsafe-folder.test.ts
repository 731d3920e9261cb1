/**
 * The app's sync folder is never the root of the file system nor a home folder itself (issue
 * 17, item 12): refused on start and when chosen, in one line, and nothing is written there.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { QuireService } from '../../../src/main/hosts/service';
import { snapshotTree } from '../../helpers/tree';
import { openService } from '../../helpers/service';

let service: QuireService | null = null;
const savedHome = process.env.HOME;
afterEach(async () => {
  process.env.HOME = savedHome;
  await service?.close();
  service = null;
});

const open = (folder: string) =>
  openService({
    apiUrl: 'https://api.example.com',
    folder,
  });

it('a home folder: refused on start, and when chosen in the settings; a folder inside it is fine', async () => {
  const home = mkdtempSync(join(tmpdir(), 'quire-home-'));
  process.env.HOME = home;
  const message = `${home} is your home folder: Quire writes its own .quire folder and a folder per space into the sync folder, so give it a folder of its own inside it, such as ${join(home, 'Docs')}.`;

  await expect(open(home)).rejects.toThrow(message);
  expect(snapshotTree(home)).toEqual(new Map());

  service = await open(join(home, 'Docs'));
  await expect(service.request('settings.update', { folder: home })).rejects.toMatchObject({ code: 'invalid-request', message });
  expect((await service.request('settings.get', {})).folder).toBe(join(home, 'Docs'));
  expect(existsSync(join(home, '.quire'))).toBe(false);
});

it('the root of the file system: refused when chosen, nothing written there', async () => {
  const folder = mkdtempSync(join(tmpdir(), 'quire-app-'));
  service = await open(folder);
  expect(existsSync('/.quire')).toBe(false);
  await expect(service.request('settings.update', { folder: '/' })).rejects.toMatchObject({
    code: 'invalid-request',
    message: expect.stringMatching(/^\/ is the root of the file system: Quire writes its own \.quire folder/),
  });
  expect(existsSync('/.quire')).toBe(false);
  expect((await service.request('settings.get', {})).folder).toBe(folder);
});
