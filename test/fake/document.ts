/**
 * A page's JSON document as GitBook sends it with `format=document`: blocks (paragraphs,
 * headings, lists of list items, code blocks of code lines, quotes, hints, dividers), each with
 * its `key`, the id a comment's `target.node` names.
 *
 * Keys are the document's, not the markdown's: GitBook's editor keeps a block's key while the
 * block is edited, and gives new blocks new keys. So does the fake when a page's markdown
 * changes: blocks that stay the same keep their keys, a block edited in place (an unmatched
 * block between unchanged ones, of the same type) keeps its key too, and the others get new
 * ones. Inline content is plain text (no marks, links kept as their text); blocks the fake does
 * not model (tables, tabs, embeds…) are paragraphs holding their source text.
 */
import { createHash } from 'node:crypto';

export interface DocText {
  object: 'text';
  leaves: { object: 'leaf'; text: string; marks: never[] }[];
}

export interface DocBlock {
  object: 'block';
  type: string;
  key: string;
  data: Record<string, unknown>;
  /** None for a void block (a divider). */
  nodes?: (DocBlock | DocText)[];
  isVoid?: boolean;
}

export interface JsonDocument {
  object: 'document';
  data: Record<string, never>;
  nodes: DocBlock[];
}

/** A block before it has a key. */
interface Spec {
  type: string;
  data: Record<string, unknown>;
  text?: string;
  children?: Spec[];
  isVoid?: boolean;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const TAG_LINE = /^\s*\{%\s*(\w[\w-]*)([^%]*)%\}\s*$/;
const DIVIDER = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;

/** Inline markdown as the plain text a document's leaves hold. */
function inlineText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_|`)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

const indentOf = (line: string): number => /^ */.exec(line)![0].length;

/** The blocks of some markdown, in order (top level, or the inside of a container). */
function parseBlocks(lines: string[]): Spec[] {
  const out: Spec[] = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    if (line.trim() === '') {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence[1]![0]}{${fence[1]!.length},}\\s*$`);
      const body: string[] = [];
      i++;
      while (i < lines.length && !close.test(lines[i]!)) body.push(lines[i++]!);
      i++;
      out.push({
        type: 'code',
        data: fence[2] ? { syntax: fence[2] } : {},
        children: body.map((text) => ({ type: 'code-line', data: {}, text })),
      });
      continue;
    }
    const tag = TAG_LINE.exec(line);
    if (tag && !tag[1]!.startsWith('end')) {
      const end = new RegExp(`^\\s*\\{%\\s*end${tag[1]}\\s*%\\}\\s*$`);
      let j = i + 1;
      while (j < lines.length && !end.test(lines[j]!)) j++;
      if (j < lines.length) {
        const inner = lines.slice(i + 1, j);
        if (tag[1] === 'hint') {
          const style = /style="(info|warning|danger|success)"/.exec(tag[2] ?? '')?.[1] ?? 'info';
          out.push({ type: 'hint', data: { style }, children: parseBlocks(inner).map((b) => fitInto(b, ESSENTIALS)) });
        } else out.push({ type: 'paragraph', data: {}, text: lines.slice(i, j + 1).join('\n') });
        i = j + 1;
        continue;
      }
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push({ type: `heading-${Math.min(heading[1]!.length, 3)}`, data: {}, text: inlineText(heading[2] ?? '') });
      i++;
      continue;
    }
    if (DIVIDER.test(line)) {
      out.push({ type: 'divider', data: {}, isVoid: true });
      i++;
      continue;
    }
    if (/^ {0,3}>/.test(line)) {
      const inner: string[] = [];
      while (i < lines.length && /^ {0,3}>/.test(lines[i]!)) inner.push(lines[i++]!.replace(/^ {0,3}> ?/, ''));
      out.push({ type: 'blockquote', data: {}, children: parseBlocks(inner).map((b) => fitInto(b, [...ESSENTIALS, 'blockquote'])) });
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      const [list, next] = parseList(lines, i);
      out.push(list);
      i = next;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '' && (para.length === 0 || !startsBlock(lines[i]!))) para.push(lines[i++]!);
    out.push({ type: 'paragraph', data: {}, text: inlineText(para.join('\n')) });
  }
  return out;
}

/** The blocks the document lets most containers hold (`DocumentBlocksEssentials`). */
const ESSENTIALS = ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'divider'];

/** A block a container may not hold becomes a paragraph of its text. */
function fitInto(spec: Spec, allowed: readonly string[]): Spec {
  if (allowed.includes(spec.type)) return spec;
  const text = (s: Spec): string => [s.text ?? '', ...(s.children ?? []).map(text)].filter(Boolean).join(' ');
  return { type: 'paragraph', data: {}, text: text(spec) };
}

const startsBlock = (line: string): boolean => FENCE.test(line) || HEADING.test(line) || TAG_LINE.test(line) || /^ {0,3}>/.test(line);

/** A list from line `start`: its items (their content indented past the marker) until a line that is neither. */
function parseList(lines: string[], start: number): [Spec, number] {
  const first = LIST_ITEM.exec(lines[start]!)!;
  const ordered = /\d/.test(first[2]!);
  const items: Spec[] = [];
  let i = start;
  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]!);
    if (!m || /\d/.test(m[2]!) !== ordered || m[1]!.length !== first[1]!.length) break;
    const contentIndent = m[1]!.length + m[2]!.length + Math.max(1, m[3]!.length);
    const body = [lines[i]!.slice(Math.min(lines[i]!.length, contentIndent))];
    i++;
    while (i < lines.length) {
      const line = lines[i]!;
      if (line.trim() === '') {
        const next = lines.slice(i + 1).find((l) => l.trim() !== '');
        if (next === undefined || indentOf(next) < contentIndent) break;
        body.push('');
      } else if (indentOf(line) >= contentIndent) body.push(line.slice(contentIndent));
      else if (LIST_ITEM.exec(line) || body.at(-1) === '') break;
      else body.push(line.trim());
      i++;
    }
    items.push({ type: 'list-item', data: {}, children: parseBlocks(body).map((b) => fitInto(b, [...ESSENTIALS, 'code', 'hint', 'blockquote'])) });
    while (i < lines.length && lines[i]!.trim() === '' && LIST_ITEM.exec(lines.slice(i).find((l) => l.trim() !== '') ?? '')) i++;
  }
  return [{ type: ordered ? 'list-ordered' : 'list-unordered', data: {}, children: items }, i];
}

/** What a block says, without keys: equal signatures are the same block. */
const signature = (s: Spec | DocBlock): string => JSON.stringify(strip(s));
function strip(s: Spec | DocBlock): unknown {
  if ('key' in s) {
    const nodes = s.nodes ?? [];
    const text = nodes.filter((n): n is DocText => n.object === 'text').map((t) => t.leaves.map((l) => l.text).join(''));
    const blocks = nodes.filter((n): n is DocBlock => n.object === 'block').map(strip);
    return [s.type, s.data, text.length ? text.join('') : undefined, blocks.length ? blocks : undefined];
  }
  return [s.type, s.data, s.text, s.children?.map(strip)];
}

/** Longest common subsequence of two signature lists: the index pairs that match. */
function lcsPairs(a: string[], b: string[]): [number, number][] {
  const n = a.length;
  const m = b.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--) table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const pairs: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/**
 * The keys `specs` take from `previous` (the same level of the document before the edit):
 * unchanged blocks by matching, and between two matches, blocks of the same type in order
 * (edited in place). Null: a new block.
 */
function inheritedKeys(specs: Spec[], previous: readonly DocBlock[]): (DocBlock | null)[] {
  const out: (DocBlock | null)[] = specs.map(() => null);
  const pairs = lcsPairs(previous.map(signature), specs.map(signature));
  const bounds: [number, number][] = [[-1, -1], ...pairs, [previous.length, specs.length]];
  for (const [i, j] of pairs) out[j] = previous[i]!;
  for (let k = 0; k + 1 < bounds.length; k++) {
    const [oldFrom, newFrom] = bounds[k]!;
    const [oldTo, newTo] = bounds[k + 1]!;
    const olds = previous.slice(oldFrom + 1, oldTo);
    for (let j = newFrom + 1; j < newTo; j++) {
      const at = olds.findIndex((o) => o.type === specs[j]!.type);
      if (at < 0) continue;
      out[j] = olds[at]!;
      olds.splice(0, at + 1);
    }
  }
  return out;
}

/** The document of a page's markdown; `previous` is its document before this edit (keys carry over). */
export function documentOf(pageId: string, markdown: string, previous?: JsonDocument): JsonDocument {
  const used = new Set<string>();
  let counter = 0;
  const newKey = (): string => {
    let k: string;
    do k = createHash('sha1').update(`${pageId}\0${markdown}\0${counter++}`).digest('base64url').slice(0, 20);
    while (used.has(k));
    return k;
  };
  const build = (specs: Spec[], before: readonly DocBlock[]): DocBlock[] => {
    const inherited = inheritedKeys(specs, before);
    return specs.map((s, i) => {
      const old = inherited[i];
      const key = old && !used.has(old.key) ? old.key : newKey();
      used.add(key);
      if (s.isVoid) return { object: 'block', type: s.type, key, data: s.data, isVoid: true };
      const nodes: (DocBlock | DocText)[] = s.children
        ? build(s.children, old?.nodes?.filter((n): n is DocBlock => n.object === 'block') ?? [])
        : [{ object: 'text', leaves: [{ object: 'leaf', text: s.text ?? '', marks: [] }] }];
      return { object: 'block', type: s.type, key, data: s.data, nodes };
    });
  };
  return { object: 'document', data: {}, nodes: build(parseBlocks(markdown.replace(/\r\n?/g, '\n').split('\n')), previous?.nodes ?? []) };
}

/** Whether a block with this key is in the document (at any depth). */
export function hasNode(doc: JsonDocument, key: string): boolean {
  const walk = (nodes: readonly (DocBlock | DocText)[]): boolean => nodes.some((n) => n.object === 'block' && (n.key === key || walk(n.nodes ?? [])));
  return walk(doc.nodes);
}
