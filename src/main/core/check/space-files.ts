/**
 * Reading a space folder for the checker and the preview: which files it holds, what kind each
 * is (a page, SUMMARY.md, reusable content, an asset), and the text of the markdown ones. A
 * file that is not UTF-8 or too large to push is listed without text, with the reason, so
 * nothing downstream ever sees replacement characters where the writer's bytes were.
 *
 * The walk follows sync's rules (core/sync/ignore.ts): Quire's state, `.git`, hidden folders
 * other than `.gitbook`, editors' temp files and conflict copies (`*.remote.md`) are not
 * content. Synchronous on purpose, as sync's scan is: thousands of small reads are several
 * times faster without a promise each.
 */
import { type Dirent, lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isIgnoredDir, isTempName } from '../sync';
import { isRemoteCopy } from '../naming';
import { relSpelledOnDisk } from '../sync';
import { MAX_PAGE_BYTES } from './limits';
import type { Steps } from './steps';
import { decodeUtf8 } from './utf8';

export const ASSETS_PREFIX = '.gitbook/assets/';

/** A path of the folder (NFC, as Quire names it) as spelt on disk (NFD, say: sync/spelling.ts). */
export const spelledOnDisk = relSpelledOnDisk;
const INCLUDES_PREFIX = '.gitbook/includes/';
export const SUMMARY_FILE = 'SUMMARY.md';
/** The space's variables (content/variables.ts). */
const VARIABLES_FILE = '.gitbook/vars.yaml';

export type SpaceFileKind = 'page' | 'summary' | 'include' | 'variables' | 'asset' | 'other';

export type Unreadable = { reason: 'not-utf8'; line: number } | { reason: 'too-large' };

export interface SpaceFile {
  /** Relative to the space folder, `/` separators, NFC. */
  path: string;
  kind: SpaceFileKind;
  size: number;
  /** The text of a markdown file (page, SUMMARY.md, reusable content) or of `.gitbook/vars.yaml`; null otherwise or when unreadable. */
  text: string | null;
  /** Why a markdown file has no text. */
  unreadable: Unreadable | null;
}

/** Where a space's first page and table of contents are, relative to its folder (Git Sync's `.gitbook.yaml` says; these by default). */
export interface SpaceStructure {
  readme: string;
  summary: string;
}

export const DEFAULT_STRUCTURE: SpaceStructure = { readme: 'README.md', summary: SUMMARY_FILE };

export function fileKind(path: string, structure: SpaceStructure = DEFAULT_STRUCTURE): SpaceFileKind {
  if (path.startsWith(ASSETS_PREFIX)) return 'asset';
  if (path.startsWith(INCLUDES_PREFIX)) return /\.md$/i.test(path) ? 'include' : 'other';
  if (path === VARIABLES_FILE) return 'variables';
  if (path.startsWith('.gitbook/')) return 'other';
  if (path === structure.summary) return 'summary';
  // A repository's own README.md, where .gitbook.yaml names another first page: GitBook's import leaves it out.
  if (path === 'README.md' && structure.readme !== 'README.md') return 'other';
  return /\.md$/i.test(path) ? 'page' : 'other';
}

/** Whether a path inside a space folder is content at all (sync's ignore rules). */
export function isContentPath(path: string): boolean {
  const parts = path.split('/');
  const name = parts[parts.length - 1]!;
  if (parts.slice(0, -1).some(isIgnoredDir) || isTempName(name) || isRemoteCopy(path)) return false;
  return !(parts.length === 1 && name.startsWith('.'));
}

/** Reads one file of a space folder; null when it is gone, not content, or a symlink (never followed, as sync never follows one). */
export function readSpaceFile(spaceDir: string, path: string, structure: SpaceStructure = DEFAULT_STRUCTURE): SpaceFile | null {
  const nfc = path.normalize('NFC');
  if (!isContentPath(nfc)) return null;
  const abs = join(spaceDir, path);
  let size: number;
  try {
    const st = lstatSync(abs);
    if (!st.isFile()) return null;
    size = st.size;
  } catch {
    return null;
  }
  const kind = fileKind(nfc, structure);
  if (kind === 'asset' || kind === 'other') return { path: nfc, kind, size, text: null, unreadable: null };
  if (size > MAX_PAGE_BYTES) return { path: nfc, kind, size, text: null, unreadable: { reason: 'too-large' } };
  let bytes: Buffer;
  try {
    bytes = readFileSync(abs);
  } catch {
    return null;
  }
  const decoded = decodeUtf8(bytes);
  if ('invalidLine' in decoded) return { path: nfc, kind, size, text: null, unreadable: { reason: 'not-utf8', line: decoded.invalidLine } };
  return { path: nfc, kind, size: bytes.length, text: decoded.text, unreadable: null };
}

/** Every content file of a space folder, sorted by path ([] when the folder does not exist), one step per file (steps.ts). */
export function* readingSpaceFolder(spaceDir: string, structure: SpaceStructure = DEFAULT_STRUCTURE): Steps<SpaceFile[]> {
  const out: SpaceFile[] = [];
  function* walk(rel: string): Steps<void> {
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
        if (!isIgnoredDir(e.name)) yield* walk(childRel);
      } else if (e.isFile()) {
        const file = readSpaceFile(spaceDir, childRel, structure);
        if (file) out.push(file);
        yield;
      }
    }
  }
  yield* walk('');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
