/**
 * A page file: optional YAML frontmatter, the title as a `# Title` heading, then the body.
 *
 *   ---
 *   description: Short summary
 *   hidden: true
 *   ---
 *
 *   # Title
 *
 *   Body markdown...
 *
 * - The frontmatter block is written only when there is metadata, as GitBook's Git Sync writes
 *   it (frontmatter-yaml.ts: its serializer, its key order, the rest alphabetically after), so
 *   render(parse(file)) gives back a file we wrote byte for byte, and parse(render(page)) gives
 *   back the page (LF body, meta without undefined values).
 * - The title goes in the heading, as GitBook does. A title a heading cannot carry
 *   exactly (empty, multi-line, leading/trailing spaces, ending in `#`) goes in the
 *   frontmatter as `title:` instead, and the file then has no title heading.
 * - Files we write use LF and no BOM; parsing accepts CRLF and a BOM and returns LF.
 * - A file's frontmatter is kept as its writer wrote it: `setPageMeta` changes only the keys
 *   whose values change, in place (frontmatter-yaml.ts).
 */
import { FrontmatterYamlError, gitbookYaml, inGitbookOrder, patchFrontmatter, readFrontmatter } from './frontmatter-yaml';

export { MAX_FRONTMATTER_BYTES, MAX_FRONTMATTER_DEPTH, parseYamlMapping } from './frontmatter-yaml';

/** JSON-like metadata; `title` is reserved (pass it as `title`). */
export type PageMeta = Record<string, unknown>;

export interface PageFile {
  /**
   * The page title, written as the `# Title` heading. When omitted, `body` is written
   * as is: a leading `# heading` in it is then what parsePageFile reads as the title.
   */
  title?: string;
  /** Markdown without the title heading (when `title` is given). */
  body: string;
  /** Any object of JSON-like values (interfaces without index signatures are fine). */
  meta?: object;
}

export interface ParsedPageFile {
  /** Null when the file has neither a title heading nor a `title:` key (keep the current title). */
  title: string | null;
  meta: PageMeta;
  body: string;
}

/** A parsed file with its frontmatter's YAML as written (LF), null when it has no block. */
export interface ReadPageFile extends ParsedPageFile {
  frontmatter: string | null;
}

/** Page fields worth a round trip through the file, in the order they are written. */
const PAGE_META_KEYS = [
  'description',
  'icon',
  'emoji',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'linkTitle',
  'condition',
  'cover',
  'layout',
  'variables',
  'metaLinks',
] as const;

export class PageFileError extends Error {
  override name = 'PageFileError';
  /** 1-based line in the file, when known. */
  readonly line: number | undefined;
  readonly column: number | undefined;
  constructor(message: string, line?: number, column?: number) {
    super(message);
    this.line = line;
    this.column = column;
  }
}

/**
 * The page fields the API reports as fields, which a file's frontmatter carries under the same key
 * (cover and layout differ), and `vars`: the page's `variables`, as Git Sync names them.
 */
export const API_META_KEYS: readonly string[] = [...PAGE_META_KEYS.filter((k) => k !== 'cover' && k !== 'layout'), 'vars'];

const isDefault = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  value === '' ||
  value === false ||
  (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0);

/**
 * Picks the metadata of an API page for its file: the PAGE_META_KEYS that are set,
 * leaving out empty strings, `false` flags and empty objects (the server's defaults).
 */
export function pickPageMeta(page: Readonly<Record<string, unknown>>): PageMeta {
  const meta: PageMeta = {};
  for (const key of PAGE_META_KEYS) {
    const value = page[key];
    if (!isDefault(value)) meta[key] = value;
  }
  return meta;
}

/**
 * What a file's metadata says to the server: every key it holds (`coverY: 0` included), the
 * API's own fields left out where they hold the server's default (`hidden: false`, `icon: ''`).
 */
export function significantMeta(meta: Readonly<PageMeta>): PageMeta {
  return Object.fromEntries(Object.entries(meta).filter(([k, v]) => v !== undefined && v !== null && !(PAGE_META_KEYS.includes(k as never) && isDefault(v))));
}

export function fitsHeading(title: string): boolean {
  return title !== '' && !/[\r\n\p{Cc}]/u.test(title) && title.trim() === title && !title.endsWith('#');
}

const toLf = (s: string): string => s.replace(/\r\n/g, '\n');

/** A page file from its frontmatter's YAML ('' for none), its title for the heading (none: the body as it is) and its body. */
export function assemblePageFile(frontmatter: string, title: string | undefined, body: string): string {
  const content = toLf(body);
  let out = frontmatter === '' ? '' : `---\n${frontmatter}${frontmatter.endsWith('\n') ? '' : '\n'}---\n\n`;
  if (title !== undefined) out += `# ${title}\n${content === '' ? '' : `\n${content}`}`;
  else out += content;
  return out;
}

/** Renders a page file (see the module comment for the format). */
export function renderPageFile({ title, body, meta = {} }: PageFile): string {
  if (Object.hasOwn(meta, 'title')) {
    throw new TypeError("Page metadata must not contain 'title': pass the title as its own field.");
  }
  const inHeading = title !== undefined && fitsHeading(title);
  const front = inGitbookOrder(inHeading || title === undefined ? { ...meta } : { title, ...meta });
  return assemblePageFile(gitbookYaml(front), inHeading ? title : undefined, body);
}

/**
 * The frontmatter YAML of a file that holds `meta` (and `title:` when `title` needs it, see the
 * module comment): `written` (a block as its writer wrote it) changed only where its values
 * change, else a new block in GitBook's form ('' when there is nothing to hold).
 */
export function frontmatterFor(written: string | null, meta: Readonly<PageMeta>, title: string | undefined): string {
  const { title: _ignored, ...rest } = meta;
  const target = title !== undefined && !fitsHeading(title) ? { title, ...rest } : rest;
  if (written !== null && written !== '') return patchFrontmatter(written, target);
  return gitbookYaml(inGitbookOrder(target));
}

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

function parseFrontmatter(source: string): PageMeta {
  try {
    return readFrontmatter(source).data;
  } catch (err) {
    if (!(err instanceof FrontmatterYamlError)) throw err;
    const line = err.line !== undefined ? err.line + 1 : undefined; // +1: the opening '---' line
    if (err.kind === 'not-mapping') {
      throw new PageFileError(
        "The frontmatter must be a list of 'key: value' lines (a YAML mapping), but it is a single value or a list. Fix it and sync again.",
        2,
      );
    }
    if (err.kind === 'too-large') throw new PageFileError(`${err.message}. Shorten it and sync again.`, 1);
    if (err.kind === 'too-deep') throw new PageFileError(`${err.message}. Nest them less deeply and sync again.`, line);
    if (err.kind === 'unreadable') throw new PageFileError(`The frontmatter could not be read: ${err.message}. Fix it and sync again.`, line ?? 1);
    throw new PageFileError(
      `The frontmatter (the block between the '---' lines at the top) is not valid YAML${line ? ` at line ${line}` : ''}: ${err.message}. Fix it and sync again.`,
      line,
      err.column,
    );
  }
}

function titleFromMeta(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new PageFileError("The frontmatter 'title' must be text. Fix it and sync again.");
}

/** Parses a page file; throws PageFileError (with a line number when known) if the frontmatter is malformed. */
export function parsePageFile(text: string): ParsedPageFile {
  const { frontmatter: _written, ...parsed } = readPageFile(text);
  return parsed;
}

/** Parses a page file, keeping its frontmatter's YAML as written (see parsePageFile). */
export function readPageFile(text: string): ReadPageFile {
  let rest = toLf(text.replace(/^\uFEFF/, ''));
  let meta: PageMeta = {};
  let title: string | null = null;
  let frontmatter: string | null = null;

  const opening = OPENING.exec(rest);
  if (opening) {
    const afterOpening = rest.slice(opening[0].length);
    const closing = CLOSING.exec(afterOpening);
    if (!closing) {
      throw new PageFileError(
        "The file starts with a '---' line (frontmatter) but has no closing '---' line. Add the closing line after the metadata, or remove the first line.",
        1,
      );
    }
    frontmatter = afterOpening.slice(0, closing.index);
    meta = parseFrontmatter(frontmatter);
    rest = afterOpening
      .slice(closing.index + closing[0].length)
      .replace(/^\n/, '')
      .replace(/^\n/, '');
    // `title:` with no value (GitBook's Git Sync wrote some) names no title: the heading gives it.
    if (Object.hasOwn(meta, 'title')) {
      title = meta.title === null ? null : titleFromMeta(meta.title);
      const { title: _drop, ...others } = meta;
      meta = others;
    }
  }

  if (title === null) {
    const heading = /^\n*#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*(?:\n|$)/.exec(rest);
    if (heading) {
      title = heading[1]!;
      rest = rest.slice(heading[0].length).replace(/^\n/, '');
    }
  }
  return { title, meta, body: rest, frontmatter };
}
