import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');
const DOCS = join(ROOT, 'docs', 'screenshots');

/**
 * Saves a screenshot (the viewport, or the whole page) as a test artifact; with QUIRE_DOCS_SCREENSHOTS=1 also
 * refreshes the README's copy in docs/screenshots (kept out of ordinary runs
 * so tests do not rewrite tracked files).
 */
export async function snap(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const file = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: options.fullPage ?? false });
  if (process.env.QUIRE_DOCS_SCREENSHOTS === '1') {
    await mkdir(DOCS, { recursive: true });
    await copyFile(file, join(DOCS, `${name}.png`));
  }
  return file;
}
