/**
 * Issue 27, item 14, in `quire preview`: a page file spelt NFD on disk (as macOS and git write
 * `ü`) is served at its name, whichever way the address spells it, like every other page.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startPreview, type PreviewServer } from '../../../src/main/hosts/preview';
import { tempDir } from '../../helpers/cli';

let server: PreviewServer;

beforeAll(async () => {
  const dir = tempDir('quire-preview-nfd-');
  writeFileSync(join(dir, 'README.md'), '# Welcome\n\nSee [Über](über.md).\n');
  writeFileSync(join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Über](über.md)\n');
  writeFileSync(join(dir, `${'über'.normalize('NFD')}.md`), '# Über\n\nAbout us, spelt NFD on disk.\n');
  server = await startPreview({ dir, log: () => undefined });
});
afterAll(async () => {
  await server?.close();
});

it.each([
  ['NFC', 'über'.normalize('NFC')],
  ['NFD', 'über'.normalize('NFD')],
])('serves the page at its name spelt %s in the address', async (_, name) => {
  const answer = await fetch(`${server.url}${encodeURIComponent(name)}.md`);
  expect(answer.status).toBe(200);
  expect(await answer.text()).toContain('About us, spelt NFD on disk.');
});
