/**
 * A checkout folder on disk: the files Quire wrote into it (read-only, 0444), and its record,
 * `.quire-checkout/checkout.json`: which change request it holds, at which revision, each page's
 * file after and before, and the hash of every file written. Bringing it to a new revision
 * writes only what changed; a file changed here since Quire wrote it (or one Quire never wrote)
 * is never written over nor removed: it is kept as it is and reported, until it is deleted
 * (the change request's version is then written again).
 */
import { chmodSync, lstatSync, readFileSync } from 'node:fs';
import type { ApiClient } from '../../api';
import { removeFileInside, resolveInside, sha256, writeFileAtomic } from '../../sync';
import { forEachBounded } from '../../sync';
import type { Wanted } from './side';

/** Quire's own folder in a checkout: hidden, so `quire check` and `quire preview` leave it out. */
export const CHECKOUT_DIR = '.quire-checkout';
export const MANIFEST_PATH = `${CHECKOUT_DIR}/checkout.json`;
/** Main at the change request's base, laid out the same way: what the preview shows as "before". */
export const BEFORE_DIR = `${CHECKOUT_DIR}/before`;

export type PageChange = 'added' | 'removed' | 'edited' | 'moved' | 'unchanged';

export interface ManifestPage {
  id: string;
  title: string;
  /** Its file in the change request (relative to the checkout folder), null when it has none there. */
  after: string | null;
  /** Its file in main at the base (relative to BEFORE_DIR), null when it has none there. */
  before: string | null;
  change: PageChange;
}

export interface Manifest {
  quireCheckout: 1;
  /** The sync folder whose mirror follows this checkout. */
  syncFolder: string;
  spaceId: string;
  spaceTitle: string;
  changeRequest: { id: string; number: number; subject: string };
  revision: string;
  baseRevision: string | null;
  writtenAt: string;
  pages: ManifestPage[];
  /** What Quire wrote, by path relative to the checkout folder: the bytes' hash, and what they were made from. */
  files: Record<string, { hash: string; source: string }>;
  /** Files changed here (or never Quire's), kept as they are. */
  kept: string[];
}

/** The checkout's record; null when the folder holds none (or one Quire cannot read). */
export function readManifest(folder: string): Manifest | null {
  try {
    const m = JSON.parse(readFileSync(resolveInside(folder, MANIFEST_PATH), 'utf8')) as Manifest;
    return m && m.quireCheckout === 1 && typeof m.changeRequest?.id === 'string' && typeof m.files === 'object' ? m : null;
  } catch {
    return null;
  }
}

export async function writeManifest(folder: string, manifest: Manifest): Promise<void> {
  await writeFileAtomic(folder, MANIFEST_PATH, `${JSON.stringify(manifest, null, 2)}\n`);
}

export interface FolderWrite {
  files: Manifest['files'];
  written: string[];
  removed: string[];
  kept: string[];
}

const sourceOf = (w: Wanted): string => (w.kind === 'text' ? `text:${sha256(w.text)}` : `file:${w.file.id}:${w.file.size}`);

/** What is at a path of the folder: nothing, a file (its bytes' hash), or something Quire leaves alone (a link, a folder). */
function onDisk(folder: string, path: string): { hash: string } | 'absent' | 'other' {
  try {
    const abs = resolveInside(folder, path);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st) return 'absent';
    return st.isFile() ? { hash: sha256(readFileSync(abs)) } : 'other';
  } catch {
    return 'other';
  }
}

/** Brings the folder's files to `wanted` (paths relative to the folder), given what Quire wrote there before. */
export async function writeFolder(
  api: ApiClient,
  folder: string,
  wanted: Map<string, Wanted>,
  before: Manifest['files'],
  signal?: AbortSignal,
): Promise<FolderWrite> {
  const out: FolderWrite = { files: {}, written: [], removed: [], kept: [] };
  const todo: [string, Wanted][] = [];
  for (const [path, want] of wanted) {
    const source = sourceOf(want);
    const had = before[path];
    const now = onDisk(folder, path);
    if (now === 'absent') {
      todo.push([path, want]);
      continue;
    }
    if (now === 'other') {
      out.kept.push(path);
      continue;
    }
    const untouched = had !== undefined && had.hash === now.hash;
    if (untouched && had.source === source) out.files[path] = had;
    else if (untouched) todo.push([path, want]);
    else if (want.kind === 'text' && now.hash === sha256(want.text)) out.files[path] = { hash: now.hash, source };
    else {
      out.kept.push(path);
      if (had) out.files[path] = had; // still what Quire wrote last: once deleted, it is written again
    }
  }
  await forEachBounded(todo, 8, async ([path, want]) => {
    signal?.throwIfAborted();
    const bytes = want.kind === 'text' ? want.text : await api.download(want.file.downloadURL, { signal });
    const abs = await writeFileAtomic(folder, path, bytes);
    chmodSync(abs, 0o444);
    out.files[path] = { hash: sha256(bytes), source: sourceOf(want) };
    out.written.push(path);
  });
  for (const [path, had] of Object.entries(before)) {
    if (wanted.has(path)) continue;
    const now = onDisk(folder, path);
    if (now === 'absent') continue;
    if (now !== 'other' && now.hash === had.hash) {
      await removeFileInside(folder, path, { pruneEmptyFolders: true });
      out.removed.push(path);
    } else {
      out.kept.push(path);
      out.files[path] = had; // reported until it is deleted
    }
  }
  out.written.sort();
  out.kept.sort();
  return out;
}
