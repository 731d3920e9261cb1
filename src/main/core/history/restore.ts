/**
 * Restoring a version: its text goes back into the folder, from where the next sync pushes it
 * like any edit (a page deleted here or on the server comes back as a new page at its last
 * path). Nothing is overwritten without its previous version in history: the file's current
 * text is recorded (`local`) and committed before the file is replaced, and a file that turns
 * out to belong to another page is never replaced (the version goes beside it instead).
 */
import { promises as fsp } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { type Mirror, UnsafeStatePathError, type VersionInfo } from '../mirror';
import { currentKeyAt } from '../search';
import { resolveInside } from '../sync';
import { findPage, type PageRef, refOf } from './target';

export type RestoreTarget = { target: string; cwd?: string } | { spaceId: string; pageKey: string };

export interface RestoreResult {
  spaceId: string;
  pageKey: string;
  version: number;
  /** Where the text went, relative to the space folder. */
  path: string;
  /** The same, relative to the sync folder. */
  file: string;
  /** written: the file now holds the version; unchanged: it already did. */
  outcome: 'written' | 'unchanged';
  /** The file's previous text, as recorded before it was replaced (null: no file, or already in history). */
  saved: VersionInfo | null;
  /** True when the page's own path was taken by another file, so the version went beside it. */
  besideOther: boolean;
}

export class VersionNotFoundError extends Error {
  override name = 'VersionNotFoundError';
}

/** Writes version `version` of a page back into its space folder (see the module comment). */
export async function restoreVersion(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'history' | 'search' | 'transaction'>,
  root: string,
  request: RestoreTarget & { version: number; now?: () => string },
): Promise<RestoreResult> {
  const now = request.now ?? (() => new Date().toISOString());
  const ref: PageRef = 'target' in request ? findPage(mirror, root, request.target, request.cwd) : refOf(mirror, request.spaceId, request.pageKey);
  const { spaceId, pageKey } = ref;
  const version = mirror.history.version(spaceId, pageKey, request.version);
  const text = version && mirror.history.text(spaceId, pageKey, request.version);
  if (!version || text === undefined) {
    const numbers = mirror.history.versions(spaceId, pageKey).map((v) => v.number);
    const have = numbers.length === 0 ? 'it has no versions in history' : `it has version${numbers.length > 1 ? 's' : ''} ${describeNumbers(numbers)}`;
    throw new VersionNotFoundError(`Version ${request.version} of ${ref.path ?? pageKey} is not in history (${have}). See them with \`quire history\`.`);
  }
  const space = mirror.catalog.space(spaceId);
  if (space?.folderRefused) throw new UnsafeStatePathError(spaceId, space.folderRefused);
  if (!space?.folder) throw new VersionNotFoundError(`The space of ${ref.path ?? pageKey} has no folder in ${root} any more; sync it again first.`);
  const spaceDir = join(root, space.folder);

  let path = ref.path ?? version.path;
  if (path === null) throw new VersionNotFoundError(`No record says where ${pageKey} had its file, so it cannot be put back; nothing was written.`);
  const owner = currentKeyAt(mirror, spaceId, path);
  let besideOther = false;
  if ((owner !== null && owner !== pageKey) || (owner === null && !pageKey.startsWith('new:') && (await readText(spaceDir, path)) !== null)) {
    path = await freePathBeside(spaceDir, path);
    besideOther = true;
  }

  const current = await readText(spaceDir, path);
  const title = version.title;
  if (current === text) {
    return { spaceId, pageKey, version: request.version, path, file: posix.join(space.folder, path), outcome: 'unchanged', saved: null, besideOther };
  }
  const saveCurrent = (t: string) =>
    mirror.transaction(() => mirror.history.record({ spaceId, pageId: pageKey, path, title, text: t, reason: 'local', detail: 'before a restore', at: now() }));
  let saved = current === null ? null : saveCurrent(current);
  await writeFileReplacing(spaceDir, path, text, async () => {
    // The writer may have saved since it was read: that text goes into history too.
    const latest = await readText(spaceDir, path);
    if (latest !== null && latest !== current) saved = saveCurrent(latest) ?? saved;
  });
  mirror.transaction(() =>
    mirror.history.record({ spaceId, pageId: pageKey, path, title, text, reason: 'restored', detail: `version ${request.version}`, at: now() }),
  );
  return { spaceId, pageKey, version: request.version, path, file: posix.join(space.folder, path), outcome: 'written', saved, besideOther };
}

/** A file's text in a space folder; null when there is none. */
export async function readText(spaceDir: string, rel: string): Promise<string | null> {
  try {
    return await fsp.readFile(resolveInside(spaceDir, rel), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
    throw err;
  }
}

/** Writes a temporary file beside the target (a name sync and the watcher ignore), then renames it over. */
export async function writeFileReplacing(spaceDir: string, rel: string, text: string, beforeReplace: () => Promise<void>): Promise<void> {
  const abs = resolveInside(spaceDir, rel);
  await fsp.mkdir(dirname(abs), { recursive: true });
  const temp = join(dirname(abs), `.quire-tmp-${process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex')}`);
  try {
    await fsp.writeFile(temp, text, { flag: 'wx' });
    await beforeReplace();
    await fsp.rename(temp, abs);
  } catch (err) {
    await fsp.rm(temp, { force: true });
    throw err;
  }
}

/** `name.restored.md`, or `name.restored-2.md`, …: the first that is free. */
async function freePathBeside(spaceDir: string, rel: string): Promise<string> {
  const stem = rel.replace(/\.md$/i, '');
  for (let n = 1; ; n++) {
    const candidate = `${stem}.restored${n === 1 ? '' : `-${n}`}.md`;
    if ((await readText(spaceDir, candidate)) === null) return candidate;
  }
}

function describeNumbers(numbers: number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted.length > 6 ? `${sorted[0]} to ${sorted.at(-1)}` : sorted.join(', ');
}
