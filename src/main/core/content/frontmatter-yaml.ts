/**
 * The YAML of a page file's frontmatter: read (linear in its size, with a limit), written as
 * GitBook's Git Sync writes it, and changed key by key in place.
 *
 * - Reading uses the `yaml` package without its duplicate-key check (quadratic: 50,000 keys took
 *   minutes); duplicates are found here in one pass. A block over MAX_FRONTMATTER_BYTES is refused
 *   with its size, and one nested deeper than MAX_FRONTMATTER_DEPTH with its line, before it is
 *   parsed: the package builds values by recursion, and `x: [[[…]]]` 5,000 deep ran the stack out
 *   (at worst inside V8's regular-expression compiler, which aborts the whole process).
 * - Writing uses js-yaml's `dump`, the serializer GitBook's Git Sync files come out of (its output
 *   matches theirs byte for byte: descriptions over 80 columns folded `>-`, `'quoted: text'`,
 *   `"\_"` for a no-break space), keys in GitBook's order.
 * - Changing (`patchFrontmatter`): a key whose value stays is kept as written, byte for byte; a
 *   key whose value changes is written again in its place; a new key goes where GitBook's order
 *   puts it; a key that goes is cut out. Comments and blank lines between keys stay.
 */
import * as jsYaml from 'js-yaml';
import * as yaml from 'yaml';
import type { CST, Document, Node } from 'yaml';
import { utf8Length } from './limits';

export const MAX_FRONTMATTER_BYTES = 64 * 1024;

/**
 * How deep lists and mappings may nest in a frontmatter block (the top-level mapping is 1):
 * GitBook's own keys nest 3 deep (`layout: title: visible:`), and 100 levels is still far from
 * what the parser's recursion and every reader after it (JSON, the mirror, the API) hold.
 */
export const MAX_FRONTMATTER_DEPTH = 100;

/**
 * The keys GitBook's Git Sync writes, in its order (hidden…icon before cover: an assumption, no
 * file shows both; `vars` before `layout`, as GitBook's own examples write it). `variables` is
 * where an older Quire wrote a page's variables.
 */
export const GITBOOK_KEY_ORDER: readonly string[] = [
  'title',
  'description',
  'hidden',
  'noIndex',
  'noRobotsIndex',
  'icon',
  'emoji',
  'cover',
  'coverY',
  'coverHeight',
  'vars',
  'layout',
  'tags',
  'linkTitle',
  'condition',
  'variables',
  'metaLinks',
];

/** Why a frontmatter block cannot be read: the message, and the line in the block (1-based) when known. */
export class FrontmatterYamlError extends Error {
  override name = 'FrontmatterYamlError';
  constructor(
    message: string,
    /** too-large, too-deep: over a limit; unreadable: valid YAML it could not turn into values (aliases); not-mapping: not `key: value` lines. */
    readonly kind: 'syntax' | 'too-large' | 'too-deep' | 'unreadable' | 'not-mapping',
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

/** The block is larger than Quire reads; null when it is not. */
function frontmatterTooLarge(source: string): string | null {
  if (source.length <= MAX_FRONTMATTER_BYTES / 3) return null;
  const bytes = utf8Length(source);
  if (bytes <= MAX_FRONTMATTER_BYTES) return null;
  return `the frontmatter is ${Math.ceil(bytes / 1024)} KB and Quire reads at most ${MAX_FRONTMATTER_BYTES / 1024} KB of it`;
}

/**
 * What keeps a block from being parsed (null when nothing does): over MAX_FRONTMATTER_BYTES;
 * lists and mappings nested deeper than MAX_FRONTMATTER_DEPTH (the line where they do); a key
 * that is a list, a mapping or an alias (a key is a name: the package writes such a key out as
 * text, which grows exponentially as those keys nest). Read from the package's syntax tree,
 * built without recursion (linear, any depth), walked with a stack of its own.
 */
function frontmatterBeyondLimits(source: string): FrontmatterYamlError | null {
  const tooLarge = frontmatterTooLarge(source);
  if (tooLarge) return new FrontmatterYamlError(`${tooLarge[0]!.toUpperCase()}${tooLarge.slice(1)}`, 'too-large', 1);
  const { Parser, CST } = yaml;
  for (const token of new Parser().parse(source)) {
    if (token.type !== 'document' || !token.value) continue;
    const stack: { node: CST.Token; depth: number }[] = [{ node: token.value, depth: 1 }];
    for (let next = stack.pop(); next; next = stack.pop()) {
      const { node, depth } = next;
      if (!CST.isCollection(node)) continue;
      if (depth > MAX_FRONTMATTER_DEPTH) {
        const limit = MAX_FRONTMATTER_DEPTH;
        return new FrontmatterYamlError(
          `The frontmatter nests lists and mappings more than ${limit} levels deep, and Quire reads at most ${limit}`,
          'too-deep',
          lineOf(source, node.offset),
        );
      }
      for (const item of node.items) {
        if (item.key && (CST.isCollection(item.key) || item.key.type === 'alias'))
          return new FrontmatterYamlError(
            'a key is a list, a mapping or an alias, where a key is a name (such as `description`)',
            'unreadable',
            lineOf(source, item.key.offset),
          );
        if (item.value) stack.push({ node: item.value, depth: depth + 1 });
      }
    }
  }
  return null;
}

/** A parsed block and the data it holds (strict: errors, duplicate keys and non-mappings are refused). */
export interface ReadBlock {
  data: Record<string, unknown>;
  doc: Document.Parsed;
}

/** Reads a frontmatter block strictly; throws FrontmatterYamlError. An empty block is `{}`. */
export function readFrontmatter(source: string): ReadBlock {
  const beyond = frontmatterBeyondLimits(source);
  if (beyond) throw beyond;
  const doc = yaml.parseDocument(source, { uniqueKeys: false, prettyErrors: true });
  const error = doc.errors[0];
  if (error) {
    const pos = error.linePos?.[0];
    const firstLine = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
    throw new FrontmatterYamlError(firstLine, 'syntax', pos?.line, pos?.col);
  }
  const duplicate = firstDuplicateKey(doc.contents);
  if (duplicate !== null) throw new FrontmatterYamlError('Map keys must be unique', 'syntax', lineOf(source, duplicate.offset));
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new FrontmatterYamlError((err as Error).message, 'unreadable');
  }
  if (value === null || value === undefined) return { data: {}, doc };
  if (typeof value !== 'object' || Array.isArray(value)) throw new FrontmatterYamlError('not a mapping', 'not-mapping', 1);
  return { data: value as Record<string, unknown>, doc };
}

/** A server's frontmatter, read leniently (duplicate keys pass, the last wins): the mapping, {} when empty, null when not one. */
export function parseYamlMapping(source: string): Record<string, unknown> | null {
  if (frontmatterBeyondLimits(source)) return null;
  try {
    const value: unknown = yaml.parse(source, { uniqueKeys: false, maxAliasCount: 100 });
    if (value === null || value === undefined) return {};
    return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The first key that repeats one of its map (any depth): where it is and its name; or null. One pass, no recursion. */
export function firstDuplicateKey(root: unknown): { offset: number; name: string } | null {
  const { isMap, isSeq, isScalar, isPair } = yaml;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isMap(node)) {
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = pair.key as Node | null;
        const name = isScalar(key) ? String(key.value) : String(key);
        // A scalar key and a mapping key that print alike are two keys.
        const seenAs = `${isScalar(key) ? 's' : 'n'}:${name}`;
        if (seen.has(seenAs)) return { offset: key?.range?.[0] ?? 0, name };
        seen.add(seenAs);
        stack.push(pair.value);
      }
    } else if (isSeq(node)) {
      for (const item of node.items) stack.push(item);
    }
  }
  return null;
}

function lineOf(source: string, offset: number): number {
  let line = 1;
  for (let i = source.indexOf('\n'); i !== -1 && i < offset; i = source.indexOf('\n', i + 1)) line++;
  return line;
}

/** A key's own text in the block: from the key to the end of its value's last line. */
interface KeySpan {
  key: string;
  start: number;
  end: number;
}

/** The top-level keys of a block mapping and where each is written; null when the block is not one (a flow mapping). */
function keySpans(source: string, doc: Document.Parsed): KeySpan[] | null {
  const { isMap, isScalar } = yaml;
  const map = doc.contents;
  if (map === null) return [];
  if (!isMap(map) || map.flow) return null;
  const spans: KeySpan[] = [];
  for (const pair of map.items) {
    const key = pair.key as Node | null;
    if (!isScalar(key) || !key.range) return null;
    const value = pair.value as Node | null;
    let end = value?.range ? value.range[1] : key.range[2];
    if (end > 0 && source[end - 1] !== '\n') {
      const newline = source.indexOf('\n', end);
      end = newline === -1 ? source.length : newline + 1;
    }
    spans.push({ key: String(key.value), start: key.range[0], end });
  }
  return spans;
}

/** YAML for `data` as GitBook writes it (js-yaml's dump), exact: it reads back as the same data. */
export function gitbookYaml(data: Record<string, unknown>): string {
  if (Object.keys(data).length === 0) return '';
  const { dump, load: read } = jsYaml;
  const readable = dump(data, { noRefs: true });
  try {
    if (JSON.stringify(read(readable)) === JSON.stringify(data)) return readable;
  } catch {
    // falls through to the exact form
  }
  // JSON is YAML: each key on its line, its value in JSON (always exact).
  return Object.entries(data)
    .map(([k, v]) => `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(k) ? k : JSON.stringify(k)}: ${JSON.stringify(v)}\n`)
    .join('');
}

/** `data` with GitBook's keys first in GitBook's order, the others after them in alphabetical order (undefined values dropped). */
export function inGitbookOrder(data: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const keys = Object.keys(data).filter((k) => data[k] !== undefined);
  const known = new Set(GITBOOK_KEY_ORDER);
  const ordered = [...GITBOOK_KEY_ORDER.filter((k) => keys.includes(k)), ...keys.filter((k) => !known.has(k)).sort()];
  return Object.fromEntries(ordered.map((k) => [k, data[k]]));
}

const same = (a: unknown, b: unknown): boolean => a === b || JSON.stringify(a) === JSON.stringify(b);

/**
 * `source` (a block as written) made to hold `target`: unchanged keys byte for byte, a changed
 * key written again in its place, a new key where GitBook's order puts it, a key absent from
 * `target` cut out. Returns `source` itself when nothing changes. A block that cannot be read,
 * or is a flow mapping, is written anew.
 */
export function patchFrontmatter(source: string, target: Readonly<Record<string, unknown>>): string {
  let read: ReadBlock;
  try {
    read = readFrontmatter(source);
  } catch {
    return gitbookYaml(inGitbookOrder(target));
  }
  const spans = keySpans(source, read.doc);
  if (spans === null) return same(read.data, target) ? source : gitbookYaml(inGitbookOrder(target));
  const present = new Set(spans.map((s) => s.key));
  const edits: { start: number; end: number; text: string }[] = [];
  for (const span of spans) {
    if (!Object.hasOwn(target, span.key) || target[span.key] === undefined) edits.push({ start: span.start, end: span.end, text: '' });
    else if (!same(read.data[span.key], target[span.key]))
      edits.push({ start: span.start, end: span.end, text: gitbookYaml({ [span.key]: target[span.key] }) });
  }
  const rank = (key: string): number => {
    const i = GITBOOK_KEY_ORDER.indexOf(key);
    return i === -1 ? GITBOOK_KEY_ORDER.length : i;
  };
  for (const key of Object.keys(target)) {
    if (present.has(key) || target[key] === undefined) continue;
    // Before the first key GitBook writes after it (else at the end).
    const next = spans.find((s) => rank(s.key) > rank(key) && Object.hasOwn(target, s.key));
    const at = next ? next.start : (spans[spans.length - 1]?.end ?? source.length);
    const text = gitbookYaml({ [key]: target[key] });
    edits.push({ start: at, end: at, text: at > 0 && source[at - 1] !== '\n' ? `\n${text}` : text });
  }
  if (edits.length === 0) return source;
  // Applied back to front (inserts at one place keep their order: stable sort, then reversed per place).
  const ordered = edits.map((e, i) => ({ ...e, i })).sort((a, b) => b.start - a.start || b.i - a.i);
  let out = source;
  for (const e of ordered) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}
