/**
 * Scan: a space folder -> the local tree (which page each file is, where it sits), new
 * assets, and which conflict copies are still there. Files whose size and mtime match
 * what was recorded when they last held their base text are not read.
 */
import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { FileRow, PageRow, PushedFile } from '../mirror';
import { isIgnoredDir, isRemoteCopy, isTempName } from './ignore';
import { ASSETS_FOLDER, SUMMARY_FILE } from './layout';
import { buildLocalTree, type KnownPage, type ScannedFile } from './local-tree';
import { pageKind, parseSummary, type SummaryEntry } from '../content';
import type { LocalAsset, LocalTree, PushedPage } from './trees';

export interface ScanInput {
  /** The mirror's page rows of the space (main as last synced, with where each file was). */
  pages: readonly PageRow[];
  /** What the open change request holds. */
  pushed: ReadonlyMap<string, PushedPage>;
  files: readonly FileRow[];
  pushedFiles: readonly PushedFile[];
  /** Pages a conflict holds, with where their file belongs when it is gone. */
  heldPages?: ReadonlyMap<string, string | null>;
}

export interface ScanResult {
  tree: LocalTree;
  /** Files under `.gitbook/assets/` neither main nor the change request has. */
  assets: LocalAsset[];
  /** Conflict copies (`*.remote.md`) present. */
  remoteCopies: Set<string>;
  summary: SummaryEntry[] | null;
  /** Page files read (the others matched their recorded size and mtime). */
  read: number;
}

interface Listing {
  pages: string[];
  assets: { path: string; size: number }[];
  remoteCopies: string[];
  summary: boolean;
}

/** Stat of a file, or null when it is gone. */
function statOrNull(abs: string): Stats | null {
  try {
    return statSync(abs);
  } catch {
    return null;
  }
}

/**
 * Lists a space folder: page files, assets, conflict copies (POSIX paths relative to it).
 * Synchronous on purpose: thousands of small directory and stat calls are several times
 * faster without a promise and a thread-pool hop each.
 */
export async function listSpaceFolder(spaceDir: string): Promise<Listing> {
  const out: Listing = { pages: [], assets: [], remoteCopies: [], summary: false };
  const walk = (rel: string): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(rel === '' ? spaceDir : join(spaceDir, rel), { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return;
      throw err;
    }
    for (const e of entries) {
      const childRel = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (!isIgnoredDir(e.name)) walk(childRel);
        continue;
      }
      if (!e.isFile() || isTempName(e.name) || (e.name.startsWith('.') && rel === '')) continue;
      if (childRel.startsWith(`${ASSETS_FOLDER}/`)) {
        const st = statOrNull(join(spaceDir, childRel));
        if (st) out.assets.push({ path: childRel, size: st.size });
      } else if (childRel.startsWith('.gitbook/')) {
      } else if (isRemoteCopy(childRel)) {
        out.remoteCopies.push(childRel);
      } else if (childRel === SUMMARY_FILE) {
        out.summary = true;
      } else if (/\.md$/i.test(e.name)) {
        out.pages.push(childRel.normalize('NFC'));
      }
    }
  };
  walk('');
  return out;
}

export async function scanSpace(spaceDir: string, input: ScanInput): Promise<ScanResult> {
  const listing = await listSpaceFolder(spaceDir);
  const byPath = new Map(input.pages.filter((p) => p.path !== null).map((p) => [p.path!, p]));
  let read = 0;
  const files: ScannedFile[] = [];
  await Promise.all(
    listing.pages.map(async (path) => {
      const abs = join(spaceDir, path);
      const row = byPath.get(path);
      if (row && row.baseContent !== null && row.localSize !== null) {
        const st = statOrNull(abs);
        if (st && st.size === row.localSize && st.mtimeMs === row.localMtimeMs) {
          files.push({ path, text: row.baseContent });
          return;
        }
      }
      const text = await readFile(abs, 'utf8').catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return null; // gone while scanning: the next scan sees it
        throw err;
      });
      read++;
      if (text !== null) files.push({ path, text });
    }),
  );

  const known: KnownPage[] = [];
  for (const p of input.pages) {
    const pushed = input.pushed.get(p.id);
    // Where the change request placed a page is where its file is here.
    const inRequest = pushed && !pushed.deleted ? pushed : null;
    const placed = inRequest?.moved ? inRequest : null;
    known.push({
      id: p.id,
      kind: pageKind(p.type),
      parentId: placed ? placed.parentId : p.parentId,
      name: placed?.name ?? p.name,
      path: p.path,
      text: inRequest ? inRequest.text : p.baseContent,
    });
  }
  const inBase = new Set(input.pages.map((p) => p.id));
  for (const p of input.pushed.values()) {
    if (inBase.has(p.id) || p.deleted) continue;
    known.push({ id: p.id, kind: 'document', parentId: p.parentId, name: p.name, path: p.path, text: p.text });
  }

  let summary: SummaryEntry[] | null = null;
  if (listing.summary) {
    const text = await readFile(join(spaceDir, SUMMARY_FILE), 'utf8').catch(() => null);
    if (text !== null) summary = parseSummary(text);
  }

  const knownAssets = new Set([...input.files.map((f) => f.path), ...input.pushedFiles.map((f) => f.path)]);
  const assets = listing.assets.filter((a) => !knownAssets.has(a.path)).map((a) => ({ path: a.path, name: posix.basename(a.path), size: a.size }));

  return {
    tree: buildLocalTree(files, known, summary ?? undefined, input.heldPages),
    assets,
    remoteCopies: new Set(listing.remoteCopies),
    summary,
    read,
  };
}
