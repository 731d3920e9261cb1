/**
 * Scan: what changed in a space folder since the last cycle left it — the planner's
 * LocalChanges (texts as the files hold them: toStableChanges turns their links into
 * references), plus what each file was when seen, to guard writes and to record.
 *
 * Cost grows with what changed: a file whose size, mtime and inode match what was recorded is
 * not read; with a hint (the paths the folder watcher saw) only those paths are looked at.
 *
 * Nothing is mistaken for a delete: a path Quire cannot or will not read — a symbolic link
 * (never followed), a device, a file it may not read, a name that is not UTF-8, a page file that
 * is not UTF-8 text, holds NUL bytes or is larger than a page can be — is reported as unreadable
 * and its page held, never taken for a deleted file.
 */
import { lstatSync, readdirSync, readFileSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { MAX_PAGE_BYTES, parseSummary } from '../content';
import type { FileStatRow, Mirror } from '../mirror';
import { sha256 } from './hash';
import { isIgnoredDir, isTempName } from './ignore';
import { ASSETS_FOLDER, isRemoteCopy, SUMMARY_FILE } from '../naming';
import { pairFiles, type SeenAppeared, type SeenVanished } from './pair-files';
import { dirNames, twoSpellings } from './dir-names';
import { relSpelledOnDisk } from './spelling';
import type { LocalAsset, LocalChanges, UnreadablePath, UnreadableReason } from './plan';

export interface SeenFile {
  size: number;
  mtimeMs: number;
  ino: string;
  hash: string;
}

export interface ScanResult {
  /** The space folder is gone (unmounted drive, moved folder): nothing may be planned for it. */
  missing: boolean;
  /** Every file was looked at (no watcher's paths narrowed the scan). */
  whole: boolean;
  local: LocalChanges;
  /** Raw (local form) texts of the files read, by path: the conversion's input. */
  read: Map<string, string>;
  /** What each page file looked at was (read or not), by path. */
  seen: SeenFiles;
  /** Known files whose content is as recorded but whose stat changed (record the new stat). */
  touched: { key: string; size: number; mtimeMs: number; ino: string }[];
  /** SUMMARY.md's text when it changed since the last cycle wrote it, and its stat. */
  summary: { text: string; seen: SeenFile } | null;
  /** Assets as seen: new or changed ones (to upload), and recorded ones gone. */
  assets: { added: (LocalAsset & SeenFile)[]; changed: (LocalAsset & SeenFile & { fileId: string | null })[]; gone: string[] };
  /** Conflict copies (`*.remote.md`) present. */
  remoteCopies: Set<string>;
  /** Page files read (the others matched their recorded size, mtime and inode). */
  readCount: number;
}

export type ScanHint = 'all' | readonly string[];

export interface ScanInput {
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'outbox'>;
  spaceId: string;
  spaceDir: string;
  /** Paths (relative to the space folder) the watcher saw change, or 'all'. */
  hint: ScanHint;
  /** Read SUMMARY.md even when it is as Quire last wrote it (its held lines are said again). */
  rereadSummary?: boolean;
}

const SUMMARY_META = (spaceId: string) => `summary-stat:${spaceId}`;
/** SUMMARY.md lists every page: a large space's is larger than a page may be. */
export const MAX_SUMMARY_BYTES = 64 * 1024 * 1024;
const decoder = new TextDecoder('utf-8', { fatal: true });
const PAGE_FILE = /\.md$/i;

/** `path` is NFC (what Quire calls the file); `disk` is the path as spelt on disk (NFD, say: spelling.ts). */
type Entry =
  | { kind: 'page' | 'asset' | 'summary' | 'copy'; path: string; disk: string; st: Stats }
  | { kind: 'unreadable'; path: string; reason: UnreadableReason };
type AssetEntry = Extract<Entry, { kind: 'page' | 'asset' | 'summary' | 'copy' }>;

/**
 * What the scan saw of each page file it looked at, by path: what it read, and for a file whose
 * size, mtime and inode match its record, the record itself (held as the row, not copied: a
 * large folder is mostly such files).
 */
export class SeenFiles {
  private readonly read = new Map<string, SeenFile>();
  private readonly asRecorded = new Map<string, FileStatRow>();

  get(path: string): SeenFile | undefined {
    const seen = this.read.get(path);
    if (seen) return seen;
    const row = this.asRecorded.get(path);
    return row && { size: row.size!, mtimeMs: row.mtimeMs!, ino: row.ino!, hash: row.fileHash! };
  }

  set(path: string, seen: SeenFile): void {
    this.asRecorded.delete(path);
    this.read.set(path, seen);
  }

  /** A file seen as its record says (its size, mtime, inode and hash known). */
  setRecorded(row: FileStatRow): void {
    this.read.delete(row.path);
    this.asRecorded.set(row.path, row);
  }
}

export function scanSpace(input: ScanInput): ScanResult {
  const { mirror, spaceId, spaceDir } = input;
  const edited = new Map<string, { path: string; text: string }>();
  const moved = new Map<string, { from: string; to: string; text: string | null }>();
  const gone = new Map<string, string>();
  const added: { path: string; text: string }[] = [];
  const unreadable: UnreadablePath[] = [];
  const newAssets: LocalAsset[] = [];
  const result: ScanResult = {
    missing: false,
    whole: input.hint === 'all',
    local: { edited, vanished: gone, moved, added, unreadable, summary: null, assets: newAssets },
    read: new Map(),
    seen: new SeenFiles(),
    touched: [],
    summary: null,
    assets: { added: [], changed: [], gone: [] },
    remoteCopies: new Set(),
    readCount: 0,
  };
  const root = lstatOrNull(spaceDir);
  if (!root?.isDirectory()) {
    result.missing = mirror.folder.count(spaceId) > 0;
    return result;
  }

  // What to look at: every file, or the watcher's paths (and what is under them). Each entry is
  // compared as it is found, so only what changed is kept.
  const found: Found = { known: new Map(), present: new Set(), blockedDirs: [], appeared: [], assets: [], edited, unreadable };
  const { known, present, blockedDirs, appeared, assets } = found;
  const looked = lookAt(input, known, entryVisitor(input, result, found));

  // Known files gone from where they were (a path behind a symlink or device is not gone).
  const blocked = blockedDirs.map(under);
  const vanished: SeenVanished[] = [];
  for (const row of known.values()) {
    if (present.has(row.path) || !looked(row.path)) continue;
    if (blocked.some((f) => f(row.path))) {
      if (!unreadable.some((u) => u.path === row.path)) unreadable.push({ path: row.path, key: row.key, reason: 'symlink' });
      continue;
    }
    vanished.push({ key: row.key, path: row.path, hash: row.fileHash });
  }

  // Moves (pair-files.ts). A file that came or went which the watcher's paths cannot pair (it
  // saw one side of a rename, say) is looked for in the whole folder: never taken for a new page
  // or a delete while its other half may be elsewhere.
  const paired = pairFiles(mirror, spaceId, vanished, appeared, input.hint === 'all');
  if (input.hint !== 'all' && (paired.gone.size > 0 || paired.added.length > 0)) return scanSpace({ ...input, hint: 'all' });
  for (const [key, m] of paired.moved) moved.set(key, m);
  for (const [key, path] of paired.gone) gone.set(key, path);
  added.push(...paired.added);

  const leftAlone = new Set(unreadable.map((u) => u.path));
  scanAssets(mirror, spaceId, spaceDir, result, assets, (path) => looked(path) && !leftAlone.has(path) && !blocked.some((f) => f(path)));
  // A changed asset goes up as a new file (the API cannot replace one); pages using it follow (space-sync.ts).
  const uploads = [...result.assets.added, ...result.assets.changed.filter((c) => c.fileId !== null)];
  newAssets.push(...uploads.map(({ path, name, size }) => ({ path, name, size })));
  return result;
}

/** What a scan collects while it looks at the folder's entries. */
interface Found {
  /** The mirror's records of the files looked at, by path. */
  known: Map<string, FileStatRow>;
  present: Set<string>;
  /** Symlinks, devices and names spelt twice: nothing under them is taken for gone. */
  blockedDirs: string[];
  appeared: SeenAppeared[];
  assets: AssetEntry[];
  edited: Map<string, { path: string; text: string }>;
  unreadable: UnreadablePath[];
}

/** Looks at one entry as it is found: kept only when it changed. */
function entryVisitor(input: ScanInput, result: ScanResult, found: Found): (e: Entry) => void {
  const { mirror, spaceId, spaceDir } = input;
  const { known, present, blockedDirs, appeared, assets, edited, unreadable } = found;
  return (e: Entry): void => {
    present.add(e.path);
    if (e.kind === 'unreadable') {
      const node = known.get(e.path);
      unreadable.push({ path: e.path, key: node?.key ?? null, reason: e.reason });
      if (e.reason === 'symlink' || e.reason === 'not-a-file' || e.reason === 'same-name') blockedDirs.push(e.path);
      return;
    }
    if (e.kind === 'copy') {
      result.remoteCopies.add(e.path);
      return;
    }
    if (e.kind === 'summary') {
      const summary = readSummary(mirror, spaceId, spaceDir, e.st, input.rereadSummary ?? false);
      if (summary && 'reason' in summary) unreadable.push({ path: e.path, key: null, reason: summary.reason });
      else if (summary) {
        result.summary = summary;
        result.local = { ...result.local, summary: parseSummary(summary.text), summaryWritten: summaryAsRecorded(mirror, spaceId) !== null };
      }
      return;
    }
    if (e.kind === 'asset') {
      assets.push(e); // assets are looked at below, all at once
      return;
    }
    const row = known.get(e.path);
    const stat = { size: e.st.size, mtimeMs: e.st.mtimeMs, ino: String(e.st.ino) };
    if (row && row.size === stat.size && row.mtimeMs === stat.mtimeMs && row.ino === stat.ino && row.fileHash !== null) {
      result.seen.setRecorded(row);
      return;
    }
    const text = readText(join(spaceDir, e.disk), e.st);
    result.readCount++;
    if (typeof text !== 'string') {
      unreadable.push({ path: e.path, key: row?.key ?? null, reason: text.reason });
      return;
    }
    const hash = sha256(text);
    result.seen.set(e.path, { ...stat, hash });
    result.read.set(e.path, text);
    if (row && row.fileHash === hash) {
      result.touched.push({ key: row.key, ...stat });
      return;
    }
    if (row) edited.set(row.key, { path: e.path, text });
    else appeared.push({ path: e.path, raw: text, hash });
  };
}

const under = (prefix: string) => (p: string) => prefix === '' || p === prefix || p.startsWith(`${prefix}/`);

/** Visits every file, or the watcher's paths (and what is under them); returns whether a path was looked at. */
function lookAt(input: ScanInput, known: Map<string, FileStatRow>, visit: (e: Entry) => void): (path: string) => boolean {
  const { mirror, spaceId, spaceDir } = input;
  if (input.hint === 'all') {
    for (const row of mirror.folder.files(spaceId)) known.set(row.path, row);
    walk(spaceDir, '', visit);
    return () => true;
  }
  // The watcher's paths are spelt as on disk; Quire's, NFC.
  const hinted = input.hint.map((p) => p.normalize('NFC'));
  const paths = [...new Set([...hinted, ...(input.rereadSummary ? [SUMMARY_FILE] : [])])].filter((p) => p !== '' && !p.split('/').includes('..'));
  for (const p of paths) {
    // `.gitbook/` beside its assets holds the space's own files (includes, vars.yaml: space-extras.ts), never pages.
    if (p === '.gitbook') {
      walkAssets(spaceDir, visit);
      continue;
    }
    if (p.startsWith('.gitbook/') && !under(ASSETS_FOLDER)(p)) continue;
    const row = mirror.folder.fileAt(spaceId, p);
    if (row) known.set(row.path, row);
    const disk = relSpelledOnDisk(spaceDir, p);
    const st = lstatOrNull(join(spaceDir, disk));
    if (st?.isDirectory()) {
      for (const r of mirror.folder.files(spaceId)) if (under(p)(r.path)) known.set(r.path, r);
      walk(spaceDir, disk, visit);
    } else if (st) visit(classify(p, st, disk));
    else for (const r of filesUnder(mirror, spaceId, p)) known.set(r.path, r);
  }
  const inside = paths.map(under);
  return (path) => inside.some((f) => f(path));
}

/** The same changes with every text in stable form (its links as references, by `toStable`). */
export function toStableChanges(local: LocalChanges, toStable: (key: string | null, path: string, raw: string) => string): LocalChanges {
  return {
    ...local,
    edited: new Map([...local.edited].map(([key, e]) => [key, { path: e.path, text: toStable(key, e.path, e.text) }])),
    moved: new Map([...local.moved].map(([key, m]) => [key, { ...m, text: m.text === null ? null : toStable(key, m.to, m.text) }])),
    added: local.added.map((a) => ({ path: a.path, text: toStable(null, a.path, a.text) })),
  };
}

/**
 * Pages whose files use one of these server files (an asset changed here, uploaded anew): read
 * as if edited, so their stable text (now naming the new upload) goes into the change request.
 */
export function readPagesUsing(input: ScanInput, result: ScanResult, fileIds: readonly string[]): ScanResult {
  const { mirror, spaceId, spaceDir } = input;
  if (fileIds.length === 0) return result;
  const edited = new Map(result.local.edited);
  for (const { spaceId: space, key } of mirror.folder.linking(spaceId, fileIds)) {
    if (space !== spaceId || edited.has(key) || result.local.moved.has(key) || result.local.vanished.has(key)) continue;
    const path = mirror.folder.node(spaceId, key)?.path;
    const disk = path ? join(spaceDir, relSpelledOnDisk(spaceDir, path)) : null;
    const st = disk ? lstatOrNull(disk) : null;
    if (!path || !disk || !st?.isFile()) continue;
    const text = readText(disk, st);
    if (typeof text !== 'string') continue;
    result.seen.set(path, { size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), hash: sha256(text) });
    result.read.set(path, text);
    edited.set(key, { path, text });
  }
  return { ...result, local: { ...result.local, edited } };
}

function filesUnder(mirror: Pick<Mirror, 'folder'>, spaceId: string, dir: string): FileStatRow[] {
  return mirror.folder.files(spaceId).filter((r) => r.path === dir || r.path.startsWith(`${dir}/`));
}

function lstatOrNull(abs: string): Stats | null {
  try {
    return lstatSync(abs, { throwIfNoEntry: false }) ?? null;
  } catch {
    return null;
  }
}

function classify(path: string, st: Stats, disk = path): Entry {
  if (st.isSymbolicLink()) return { kind: 'unreadable', path, reason: 'symlink' };
  if (!st.isFile()) return { kind: 'unreadable', path, reason: 'not-a-file' };
  if (path === SUMMARY_FILE) return { kind: 'summary', path, disk, st };
  if (path.startsWith(`${ASSETS_FOLDER}/`)) return { kind: 'asset', path, disk, st };
  if (isRemoteCopy(path)) return { kind: 'copy', path, disk, st };
  return { kind: 'page', path, disk, st };
}

/**
 * Lists what is under `rel` (POSIX paths relative to the space folder). Synchronous on
 * purpose: thousands of small directory and stat calls are several times faster without a
 * promise and a thread-pool hop each. A name that is not UTF-8 is reported rather than silently
 * replaced (`dirNames`).
 */
function walk(spaceDir: string, rel: string, visit: (e: Entry) => void): void {
  const dir = rel === '' ? spaceDir : `${spaceDir}/${rel}`;
  const names = dirNames(dir);
  if (names === 'gone') return;
  if (names === 'no-permission') {
    visit({ kind: 'unreadable', path: rel, reason: 'no-permission' });
    return;
  }
  const spelledTwice = twoSpellings(names);
  const told = new Set<string>();
  for (const { name, isDirectory, badName } of names) {
    const childRel = rel === '' ? name : `${rel}/${name}`;
    if (badName) {
      visit({ kind: 'unreadable', path: childRel, reason: 'bad-name' });
      continue;
    }
    // Entries spelling one name two ways (NFC and NFD): neither is taken for the other, nor for a delete.
    const nfc = spelledTwice ? name.normalize('NFC') : '';
    if (spelledTwice?.has(nfc)) {
      if (!told.has(nfc)) visit({ kind: 'unreadable', path: childRel.normalize('NFC'), reason: 'same-name' });
      told.add(nfc);
      continue;
    }
    // A folder needs no stat of its own (its type comes with its name); a file does, for what it is.
    // Names from a directory hold no `/`: joined as strings, not normalised by path.join.
    const st = isDirectory ? null : lstatOrNull(`${dir}/${name}`);
    if (isDirectory || st?.isDirectory()) {
      if (isIgnoredDir(name)) continue;
      if (childRel === '.gitbook') walkAssets(spaceDir, visit);
      else walk(spaceDir, childRel, visit);
      continue;
    }
    if (!st) continue;
    // The assets' folder behind a symbolic link: left alone (never followed), its files not gone.
    if (childRel === '.gitbook' && st.isSymbolicLink()) {
      visit({ kind: 'unreadable', path: childRel, reason: 'symlink' });
      continue;
    }
    if (isTempName(name) || (name.startsWith('.') && rel === '')) continue;
    const entry = classify(childRel.normalize('NFC'), st, childRel);
    if (entry.kind === 'page' && !PAGE_FILE.test(name) && !st.isSymbolicLink()) continue;
    if (entry.kind === 'unreadable' && !PAGE_FILE.test(name) && entry.reason !== 'symlink') continue;
    visit(entry);
  }
}

function walkAssets(spaceDir: string, visit: (e: Entry) => void): void {
  const folder = lstatOrNull(join(spaceDir, ASSETS_FOLDER));
  if (folder?.isSymbolicLink()) {
    visit({ kind: 'unreadable', path: ASSETS_FOLDER, reason: 'symlink' });
    return;
  }
  if (!folder?.isDirectory()) return;
  let names: string[];
  try {
    names = readdirSync(join(spaceDir, ASSETS_FOLDER));
  } catch {
    return;
  }
  for (const name of names) {
    if (isTempName(name)) continue;
    const disk = `${ASSETS_FOLDER}/${name}`;
    const st = lstatOrNull(join(spaceDir, disk));
    if (st) visit(classify(disk.normalize('NFC'), st, disk));
  }
}

/** A page file's text (or SUMMARY.md's, with its own limit), or why it cannot be taken as one. */
export function readText(abs: string, st: Stats, maxBytes = MAX_PAGE_BYTES): string | { reason: UnreadableReason } {
  if (st.size > maxBytes) return { reason: 'too-large' };
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return { reason: code === 'EACCES' || code === 'EPERM' ? 'no-permission' : 'not-a-file' };
  }
  if (bytes.length > maxBytes) return { reason: 'too-large' };
  if (bytes.includes(0)) return { reason: 'binary' };
  try {
    return decoder.decode(bytes);
  } catch {
    return { reason: 'not-utf8' };
  }
}

/**
 * SUMMARY.md's text when it changed since Quire last wrote (or read) it; why it cannot be read
 * when it is not text Quire can take (reported: it is left alone, never written over).
 */
function readSummary(
  mirror: Pick<Mirror, 'catalog'>,
  spaceId: string,
  spaceDir: string,
  st: Stats,
  again: boolean,
): { text: string; seen: SeenFile } | { reason: UnreadableReason } | null {
  const stat = { size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino) };
  const last = summaryAsRecorded(mirror, spaceId);
  if (!again && last && last.size === stat.size && last.mtimeMs === stat.mtimeMs && last.ino === stat.ino) return null;
  const text = readText(join(spaceDir, SUMMARY_FILE), st, MAX_SUMMARY_BYTES);
  if (typeof text !== 'string') return text;
  const hash = sha256(text);
  if (!again && last?.hash === hash) return null;
  return { text, seen: { ...stat, hash } };
}

/** SUMMARY.md as Quire last wrote (or read) it, or null. */
export function summaryAsRecorded(mirror: Pick<Mirror, 'catalog'>, spaceId: string): SeenFile | null {
  const recorded = mirror.catalog.getMeta(SUMMARY_META(spaceId));
  return recorded ? (JSON.parse(recorded) as SeenFile) : null;
}

/** Records SUMMARY.md as Quire wrote (or read) it, so the next scan sees only the writer's edits. */
export function recordSummary(mirror: Pick<Mirror, 'catalog'>, spaceId: string, seen: SeenFile): void {
  mirror.catalog.setMeta(SUMMARY_META(spaceId), JSON.stringify(seen));
}

/** Assets new, changed or gone; `looked`: a recorded asset not found there is gone (one behind a symbolic link is not). */
function scanAssets(
  mirror: Pick<Mirror, 'content' | 'folder' | 'outbox'>,
  spaceId: string,
  spaceDir: string,
  result: ScanResult,
  assets: AssetEntry[],
  looked: (p: string) => boolean,
): void {
  const recorded = new Map(mirror.folder.assets(spaceId).map((a) => [a.path, a]));
  const onServer = (path: string) => mirror.content.fileIdAt(spaceId, path) ?? mirror.outbox.pushedFileIdAt(spaceId, path);
  for (const a of assets) {
    const rec = recorded.get(a.path);
    const stat = { size: a.st.size, mtimeMs: a.st.mtimeMs, ino: String(a.st.ino) };
    if (rec && rec.size === stat.size && rec.mtimeMs === stat.mtimeMs && rec.ino === stat.ino) continue;
    let hash: string;
    try {
      hash = sha256(readFileSync(join(spaceDir, a.disk)));
    } catch {
      continue;
    }
    const name = a.path.slice(ASSETS_FOLDER.length + 1);
    if (rec && rec.hash === hash) continue;
    const fileId = rec?.fileId ?? onServer(a.path);
    if (rec || fileId !== null) result.assets.changed.push({ path: a.path, name, ...stat, hash, fileId: rec?.fileId ?? fileId });
    else result.assets.added.push({ path: a.path, name, ...stat, hash });
  }
  const present = new Set(assets.map((a) => a.path));
  for (const path of recorded.keys()) if (looked(path) && !present.has(path)) result.assets.gone.push(path);
}
