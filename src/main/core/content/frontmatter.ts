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
 * - The frontmatter block is written only when there is metadata.
 * - The title goes in the heading, as GitBook does. A title a heading cannot carry
 *   exactly (empty, multi-line, leading/trailing spaces, ending in `#`) goes in the
 *   frontmatter as `title:` instead, and the file then has no title heading.
 * - Files we write use LF and no BOM; parsing accepts CRLF and a BOM and returns LF.
 * - Keys are written in a fixed order (PAGE_META_KEYS, then the rest alphabetically),
 *   so render(parse(file)) gives back a file we wrote byte for byte, and
 *   parse(render(page)) gives back the page (LF body, meta without undefined values).
 */
import { createRequire } from 'node:module';

/**
 * The yaml package, loaded the first time a page file is read or written: it is the largest
 * module the command line loads, and `quire sync` reaches its first request sooner without it.
 */
let yamlModule: typeof import('yaml') | undefined;
function yaml(): typeof import('yaml') {
  yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return yamlModule;
}

/**
 * A YAML mapping as a server's frontmatter may hold it, read leniently (duplicate keys and the
 * like pass): the mapping, {} for an empty block, or null when the block is not a mapping.
 */
export function parseYamlMapping(source: string): Record<string, unknown> | null {
  try {
    const value: unknown = yaml().parse(source);
    if (value === null || value === undefined) return {};
    return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

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
 * Picks the metadata of an API page for its file: the PAGE_META_KEYS that are set,
 * leaving out empty strings, `false` flags and empty objects (the server's defaults).
 */
export function pickPageMeta(page: Readonly<Record<string, unknown>>): PageMeta {
  const meta: PageMeta = {};
  for (const key of PAGE_META_KEYS) {
    const value = page[key];
    if (value === undefined || value === null || value === '' || value === false) continue;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) continue;
    meta[key] = value;
  }
  return meta;
}

/** Own keys in the canonical order, undefined values dropped (fromEntries: a `__proto__` key stays a plain key). */
function orderedMeta(meta: PageMeta): PageMeta {
  const known: readonly string[] = ['title', ...PAGE_META_KEYS];
  const keys = Object.keys(meta).filter((k) => meta[k] !== undefined);
  const rest = keys.filter((k) => !known.includes(k)).sort();
  return Object.fromEntries([...known.filter((k) => keys.includes(k)), ...rest].map((k) => [k, meta[k]]));
}

function fitsHeading(title: string): boolean {
  return title !== '' && !/[\r\n\p{Cc}]/u.test(title) && title.trim() === title && !title.endsWith('#');
}

/**
 * YAML for `value` that parses back to the same data. The readable form (block
 * scalars for multi-line text) loses some whitespace-only lines in the yaml library,
 * so it is checked, falling back to double-quoted strings, which are always exact.
 */
function stringifyExactly(value: PageMeta): string {
  const base = { lineWidth: 0, minContentWidth: 0, aliasDuplicateObjects: false } as const;
  const readable = yaml().stringify(value, base);
  if (JSON.stringify(yaml().parse(readable)) === JSON.stringify(value)) return readable;
  return yaml().stringify(value, { ...base, blockQuote: false, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' });
}

const toLf = (s: string): string => s.replace(/\r\n/g, '\n');

/** Renders a page file (see the module comment for the format). */
export function renderPageFile({ title, body, meta = {} }: PageFile): string {
  if (Object.hasOwn(meta, 'title')) {
    throw new TypeError("Page metadata must not contain 'title': pass the title as its own field.");
  }
  const inHeading = title !== undefined && fitsHeading(title);
  const front = orderedMeta(inHeading || title === undefined ? { ...meta } : { title, ...meta });
  const content = toLf(body);
  let out = '';
  if (Object.keys(front).length > 0) out += `---\n${stringifyExactly(front)}---\n\n`;
  if (inHeading) out += `# ${title}\n${content === '' ? '' : `\n${content}`}`;
  else out += content;
  return out;
}

const OPENING = /^---[ \t]*\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*$/m;

/**
 * The first key of a mapping that repeats an earlier key of the same mapping (offset), or null.
 * The yaml library's own `uniqueKeys` compares every key with every other (quadratic: 50,000
 * keys took over a minute); a set per mapping does the same check in one pass.
 */
function repeatedKey(doc: import('yaml').Document): number | null {
  const { isMap, isScalar, visit } = yaml();
  let at: number | null = null;
  visit(doc, {
    Map(_key, map) {
      if (!isMap(map)) return undefined;
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = isScalar(pair.key) ? pair.key.value : pair.key;
        if (seen.has(key)) {
          at = (isScalar(pair.key) ? pair.key.range?.[0] : undefined) ?? map.range?.[0] ?? 0;
          return visit.BREAK;
        }
        seen.add(key);
      }
      return undefined;
    },
  });
  return at;
}

function parseFrontmatter(source: string): PageMeta {
  const lineCounter = new (yaml().LineCounter)();
  const doc = yaml().parseDocument(source, { uniqueKeys: false, prettyErrors: true, lineCounter });
  const repeated = doc.errors.length === 0 ? repeatedKey(doc) : null;
  if (repeated !== null) {
    const line = lineCounter.linePos(repeated).line + 1; // +1: the opening '---' line
    throw new PageFileError(
      `The frontmatter (the block between the '---' lines at the top) is not valid YAML at line ${line}: Map keys must be unique. Fix it and sync again.`,
      line,
    );
  }
  const error = doc.errors[0];
  if (error) {
    const pos = error.linePos?.[0];
    const firstLine = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
    const line = pos ? pos.line + 1 : undefined; // +1: the opening '---' line
    throw new PageFileError(
      `The frontmatter (the block between the '---' lines at the top) is not valid YAML${line ? ` at line ${line}` : ''}: ${firstLine}. Fix it and sync again.`,
      line,
      pos?.col,
    );
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new PageFileError(`The frontmatter could not be read: ${(err as Error).message}. Fix it and sync again.`, 1);
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new PageFileError(
      "The frontmatter must be a list of 'key: value' lines (a YAML mapping), but it is a single value or a list. Fix it and sync again.",
      2,
    );
  }
  return value as PageMeta;
}

function titleFromMeta(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw new PageFileError("The frontmatter 'title' must be text. Fix it and sync again.");
}

/** Parses a page file; throws PageFileError (with a line number when known) if the frontmatter is malformed. */
export function parsePageFile(text: string): ParsedPageFile {
  let rest = toLf(text.replace(/^\uFEFF/, ''));
  let meta: PageMeta = {};
  let title: string | null = null;

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
    meta = parseFrontmatter(afterOpening.slice(0, closing.index));
    rest = afterOpening
      .slice(closing.index + closing[0].length)
      .replace(/^\n/, '')
      .replace(/^\n/, '');
    if (Object.hasOwn(meta, 'title')) {
      title = titleFromMeta(meta.title);
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
  return { title, meta, body: rest };
}
