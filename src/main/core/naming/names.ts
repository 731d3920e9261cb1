/**
 * File and folder names: GitBook's own, unless the file system of the sync folder cannot hold
 * them (pure; the engine probes what the volume holds, see sync/name-rules.ts).
 *
 * GitBook's Git Sync names a page's file after its slug, exactly: `f.a.q.` is `f.a.q..md`,
 * `vue.js-guide` is `vue.js-guide.md`, `CON` is `CON.md`. A name deviates from that only where:
 *
 * - `characters`: it holds what no name here can (`/`, `\`, control and invisible format
 *   characters; `<>:"|?*` on Windows, exFAT and FAT volumes);
 * - `windows-name`: Windows reserves it (`con`, `nul`, `com1`…; a folder ending in a dot or a space);
 * - `hidden`: it starts with a dot (a hidden file Quire skips; `.git`, `.gitbook`, `.quire`);
 * - `too-long`: it is longer than MAX_SEGMENT_BYTES of UTF-8 (less deep down, see folder.ts);
 * - `empty`: nothing is left;
 * - `reserved`: it is the folder's own `README.md` or the space's `SUMMARY.md`;
 * - `case`: another page of the folder has it in another letter case, and the volume ignores case;
 * - `taken`: another page of the folder has it;
 * - `file-in-the-way`: a file Quire leaves where it is holds that path (the planner's lay-out stage).
 *
 * Names are NFC (as the scan reads them). The candidates of a name, best first: the name, then
 * `<name>-<first 8 chars of the page id>`, `<name>-<id up to 32 chars>`, `<name>-<short id>-2`…
 */
import { utf8Length } from '../content';

export interface NameRules {
  /** Names that differ only in letter case (or Unicode compatibility form) are one file. */
  caseInsensitive: boolean;
  /** `<>:"|?*` cannot be in a name (Windows, exFAT, FAT). */
  windowsCharacters: boolean;
  /** Windows device names (`con`, `nul`, `com1`…) and names ending in a dot or a space are refused (Windows itself). */
  windowsNames: boolean;
}

/** What every common file system holds (Linux, macOS, Windows): the layout's default. */
export const PORTABLE_NAMES: Readonly<NameRules> = Object.freeze({ caseInsensitive: true, windowsCharacters: true, windowsNames: true });

/** A case-sensitive Linux volume (ext4, tmpfs, btrfs…): only `/` and NUL are refused. */
export const POSIX_NAMES: Readonly<NameRules> = Object.freeze({ caseInsensitive: false, windowsCharacters: false, windowsNames: false });

export type NameDeviation = 'characters' | 'windows-name' | 'hidden' | 'too-long' | 'empty' | 'reserved' | 'case' | 'taken' | 'file-in-the-way';

export const MAX_SEGMENT_BYTES = 120;

/** A name's length in UTF-8 (what file systems count). */
export const byteLength = utf8Length;

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)(?= *(\.|$))/i;
const WINDOWS_CHARACTERS = /[<>:"|?*]/g;
// Control, format (bidi overrides, zero-width), lone surrogates; and the two folder separators.
const NEVER = /[\p{Cc}\p{Cf}\p{Cs}]/gu;
const SEPARATORS = /[/\\]/g;

/** Comparison key under which two names are the same file on a case-insensitive volume. */
export function foldKey(name: string): string {
  return name.normalize('NFKC').toUpperCase().toLowerCase();
}

/** The key two names of one folder are compared by under `rules`. */
export function nameKey(name: string, rules: NameRules): string {
  return rules.caseInsensitive ? foldKey(name) : name.normalize('NFC');
}

/** Cuts to at most maxBytes of UTF-8 without splitting a code point. */
function truncateBytes(s: string, maxBytes: number): string {
  if (byteLength(s) <= maxBytes) return s;
  let out = '';
  let used = 0;
  for (const ch of s) {
    const n = byteLength(ch);
    if (used + n > maxBytes) break;
    out += ch;
    used += n;
  }
  return out;
}

/**
 * What a name is used for: a page's file (`<name>.md`, or an asset's name before its extension),
 * or an entry as it is (a folder, an asset without extension), which Windows refuses when it ends
 * in a dot or a space.
 */
export type NameUse = 'file' | 'folder';

/** What is left of `name` once what no name here can hold is taken out (may be ''), and why it changed. */
function holdable(name: string, rules: NameRules, use: NameUse = 'file'): { name: string; deviation: NameDeviation | null } {
  let deviation: NameDeviation | null = null;
  const note = (before: string, after: string, why: NameDeviation): string => {
    if (after !== before && deviation === null) deviation = why;
    return after;
  };
  let n = name.normalize('NFC');
  n = note(n, n.replace(NEVER, '').replace(SEPARATORS, '-'), 'characters');
  if (rules.windowsCharacters) n = note(n, n.replace(WINDOWS_CHARACTERS, '-'), 'characters');
  n = note(n, n.replace(/^\.+/, ''), 'hidden');
  if (rules.windowsNames && use === 'folder') n = note(n, n.replace(/[\s.]+$/u, ''), 'windows-name');
  // Spaces alone (or with dots) are no name: Windows would read them as '.' or '..'.
  if (/^[\s.]*$/u.test(n) && n !== '') n = note(n, '', 'empty');
  return { name: n, deviation };
}

/** True when nothing of `name` is left once what no name can hold is taken out (`..`, say). */
export function holdsNothing(name: string, rules: NameRules): boolean {
  return holdable(name, rules).name === '';
}

/** `<base><suffix><extension>` within budget bytes, holdable under `rules`. */
function fitName(base: string, suffix: string, budget: number, rules: NameRules, extension = ''): string {
  let room = budget - byteLength(suffix) - byteLength(extension);
  for (;;) {
    let cut = truncateBytes(base, Math.max(room, 0)).normalize('NFC');
    // A cut name (or one that takes a suffix) does not end in what the cut left dangling.
    if (cut !== base || suffix !== '') cut = cut.replace(/[\s.-]+$/u, '');
    let candidate = (cut || 'page') + suffix + extension;
    if (rules.windowsNames) candidate = candidate.replace(WINDOWS_RESERVED, '$1_');
    if (byteLength(candidate) <= budget || room <= 0) return candidate;
    room -= 1;
  }
}

/** The name GitBook gives a page: its slug, else a slug made from its title. */
export function gitbookName(page: { slug: string | null; title: string }): string {
  if (page.slug) return page.slug;
  return slugFromTitle(String(page.title ?? '')) || 'page';
}

export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

/** The name `wanted` becomes here, before any clash: holdable, within budget. */
export function baseName(
  wanted: string,
  budget: number,
  rules: NameRules,
  use: NameUse = 'file',
  extension = '',
): { name: string; deviation: NameDeviation | null } {
  const held = holdable(wanted, rules, use);
  if (held.name === '') return { name: fitName('page', '', budget, rules, extension), deviation: held.deviation ?? 'empty' };
  const name = fitName(held.name, '', budget, rules, extension);
  if (name === held.name + extension) return { name, deviation: held.deviation };
  const windows = rules.windowsNames && WINDOWS_RESERVED.test(held.name);
  return { name, deviation: held.deviation ?? (windows ? 'windows-name' : 'too-long') };
}

function idSuffixParts(id: string): { short: string; long: string } {
  const clean = id
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, '');
  return { short: clean.slice(0, 8), long: clean.slice(0, 32) };
}

/** Names a page may take in its folder, best first (endless: the last form counts up). */
export function* nameCandidates(wanted: string, id: string, budget: number, rules: NameRules, use: NameUse = 'file', extension = ''): Generator<string> {
  const held = holdable(wanted, rules, use).name || 'page';
  const { short, long } = idSuffixParts(id);
  yield fitName(held, '', budget, rules, extension);
  if (short) yield fitName(held, `-${short}`, budget, rules, extension);
  if (long.length > short.length) yield fitName(held, `-${long}`, budget, rules, extension);
  for (let n = 2; ; n++) yield fitName(held, `-${short || 'page'}-${n}`, budget, rules, extension);
}

export function isCandidate(name: string, candidates: Generator<string>): boolean {
  let i = 0;
  for (const c of candidates) {
    if (c === name) return true;
    if (++i > 64) return false;
  }
  return false;
}

/** The names taken in one folder, compared as the volume compares them. */
export class FolderNames {
  private readonly taken = new Set<string>();
  constructor(private readonly rules: NameRules) {}
  isFree(names: readonly string[]): boolean {
    return names.every((n) => !this.taken.has(nameKey(n, this.rules)));
  }
  claim(names: readonly string[]): void {
    for (const n of names) this.taken.add(nameKey(n, this.rules));
  }
}

/** True when `segment` is one path segment every common file system holds (PORTABLE_NAMES). */
export function isSafeSegment(segment: string, maxBytes = MAX_SEGMENT_BYTES + 3): boolean {
  if (segment === '' || segment.normalize('NFC') !== segment) return false;
  if (byteLength(segment) > maxBytes) return false;
  if (/[\p{Cc}\p{Cf}\p{Cs}<>:"/\\|?*]/u.test(segment)) return false;
  if (segment.startsWith('.') || /[\s.]$/u.test(segment)) return false;
  return !WINDOWS_RESERVED.test(segment);
}

/**
 * One safe path segment made from free text (a title): slugified, then made safe for every
 * common file system; `fallback` (made safe too) when nothing usable is left.
 */
export function safeSegment(text: string, fallback = 'page'): string {
  const fromTitle = holdable(slugFromTitle(String(text ?? '')), PORTABLE_NAMES).name.replace(/^[\s.-]+|[\s.-]+$/gu, '');
  const base = fromTitle || holdable(fallback, PORTABLE_NAMES).name.replace(/^[\s.-]+|[\s.-]+$/gu, '') || 'page';
  return fitName(base, '', MAX_SEGMENT_BYTES, PORTABLE_NAMES);
}

/**
 * Why a page named `local` here is not named `gitbook` (its GitBook name): what the volume
 * refuses in it, else what holds it in the folder (`reserved`: README.md or SUMMARY.md; `case`: a
 * sibling's GitBook name in another letter case; `siblings` are the others' GitBook names).
 */
export function explainName(
  gitbook: string,
  local: string,
  where: { budget: number; rules: NameRules; use: NameUse; reserved: readonly string[]; siblings: readonly string[] },
): NameDeviation {
  const { name, deviation } = baseName(gitbook, where.budget, where.rules, where.use);
  if (name !== gitbook) return deviation ?? 'characters';
  if (local === gitbook) return 'file-in-the-way';
  const written = where.use === 'folder' ? gitbook : `${gitbook}.md`;
  if (where.reserved.some((r) => foldKey(r) === foldKey(written))) return 'reserved';
  if (where.rules.caseInsensitive && where.siblings.some((s) => s !== gitbook && foldKey(s) === foldKey(gitbook))) return 'case';
  return 'taken';
}
