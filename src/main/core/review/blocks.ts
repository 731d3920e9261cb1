/**
 * Which lines of a page's file each block of its document is: what a comment on a line names
 * (the block's `key`, the API's `node`), and where a comment on a block shows. Pure.
 *
 * The document (the API's JSON: blocks with keys, text in leaves) and the file (markdown) say
 * the same thing two ways. The file's body is cut into the blocks markdown makes (paragraphs,
 * headings, lists and their items, fenced code and its lines, quotes, `{% %}` blocks…), each
 * with its lines; the document's blocks are matched to them in order by the words they share,
 * level by level (a list's items to the list's items, a code block's lines to its lines). A
 * block whose words the file does not have (an embed, a drawing) gets no lines.
 *
 *   const spans = blockSpans(fileText, document);
 *   blockAt(spans, 12);           // the innermost block holding line 12, or null
 */
import { blockAt, blockForLine, type LineSpan } from '../../../shared/line-blocks';
import { readPageFile } from '../content';

export { blockAt, blockForLine };

export interface BlockSpan extends LineSpan {
  /** The block's key: what a comment's `node` names. */
  key: string;
  type: string;
  /** What the block says (blockFingerprint). */
  fingerprint: string;
}

interface DocNode {
  object?: string;
  type?: string;
  key?: string;
  text?: string;
  leaves?: { text?: string }[];
  nodes?: DocNode[];
}

/** A block of the file: its lines (0-based, inclusive, in the file) and the blocks inside it. */
interface Source {
  start: number;
  end: number;
  words: string[];
  /** `code` blocks hold their lines; a list its items; quotes, items and `{% %}` blocks what they hold. */
  kind: 'leaf' | 'code' | 'code-line' | 'list' | 'container';
  children: Source[];
}

/** What a block says, without keys: equal fingerprints, the same block. */
export function blockFingerprint(node: unknown): string {
  const strip = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(strip);
    if (n === null || typeof n !== 'object') return n;
    return Object.fromEntries(
      Object.entries(n as Record<string, unknown>)
        .filter(([k]) => k !== 'key')
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => [k, strip(v)]),
    );
  };
  // node:crypto loads with the first hash (it brings Node's streams): `quire status` never loads it.
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha1')
    .update(JSON.stringify(strip(node)))
    .digest('hex')
    .slice(0, 16);
}

const WORD = /[\p{L}\p{N}]+/gu;

/** The words of markdown source, its syntax left out (link destinations, tags, markers). */
function sourceWords(text: string): string[] {
  const plain = text
    .replace(/\]\([^)]*\)/g, ']')
    .replace(/\{%[^%]*%\}/g, ' ')
    .replace(/<[^>]*>/g, ' ');
  return (plain.toLowerCase().match(WORD) ?? []) as string[];
}

function textOf(n: DocNode): string {
  if (n.object === 'text') return (n.leaves ?? []).map((l) => l.text ?? '').join('') + (n.text ?? '');
  return (n.nodes ?? []).map(textOf).join(' ');
}

const docWords = (n: DocNode): string[] => (textOf(n).toLowerCase().match(WORD) ?? []) as string[];
const blocksOf = (n: DocNode): DocNode[] => (n.nodes ?? []).filter((c) => c.object === 'block');

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)/;
const TAG_LINE = /^\s*\{%\s*(\w[\w-]*)[^%]*%\}\s*$/;
const QUOTE = /^ {0,3}>/;
const indentOf = (line: string): number => /^ */.exec(line)![0].length;
const startsBlock = (line: string): boolean => FENCE.test(line) || HEADING.test(line) || TAG_LINE.test(line) || QUOTE.test(line);

/** The blocks of lines[from..to) (each line's text as a container's content, `at` its line in the file). */
function parse(lines: readonly string[], at: readonly number[]): Source[] {
  const out: Source[] = [];
  const source = (i: number, j: number, kind: Source['kind'], children: Source[] = [], text?: string): Source => ({
    start: at[i]!,
    end: at[j]!,
    words: sourceWords(text ?? lines.slice(i, j + 1).join('\n')),
    kind,
    children,
  });
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
      let j = i + 1;
      while (j < lines.length && !close.test(lines[j]!)) j++;
      const inner = lines.slice(i + 1, Math.min(j, lines.length)).map((text, k) => ({ ...source(i + 1 + k, i + 1 + k, 'code-line'), words: codeWords(text) }));
      out.push({ ...source(i, Math.min(j, lines.length - 1), 'code', inner), words: inner.flatMap((c) => c.words) });
      i = j + 1;
      continue;
    }
    const tag = TAG_LINE.exec(line);
    if (tag && !tag[1]!.startsWith('end')) {
      const end = new RegExp(`^\\s*\\{%\\s*end${tag[1]}\\s*%\\}\\s*$`);
      let j = i + 1;
      while (j < lines.length && !end.test(lines[j]!)) j++;
      if (j < lines.length) {
        out.push(source(i, j, 'container', parse(lines.slice(i + 1, j), at.slice(i + 1, j))));
        i = j + 1;
        continue;
      }
    }
    if (HEADING.test(line) || /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/.test(line)) {
      out.push(source(i, i, 'leaf'));
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      let j = i;
      while (j + 1 < lines.length && QUOTE.test(lines[j + 1]!)) j++;
      const inner = lines.slice(i, j + 1).map((l) => l.replace(/^ {0,3}> ?/, ''));
      out.push(source(i, j, 'container', parse(inner, at.slice(i, j + 1))));
      i = j + 1;
      continue;
    }
    if (LIST_ITEM.test(line)) {
      const [list, next] = parseList(lines, at, i);
      out.push(list);
      i = next;
      continue;
    }
    let j = i;
    while (j + 1 < lines.length && lines[j + 1]!.trim() !== '' && !startsBlock(lines[j + 1]!) && !LIST_ITEM.test(lines[j + 1]!)) j++;
    out.push(source(i, j, 'leaf'));
    i = j + 1;
  }
  return out;
}

const codeWords = (text: string): string[] => (text.toLowerCase().match(WORD) ?? []) as string[];

/** A list from line `first`: its items, each with what it holds (its content past the marker). */
function parseList(lines: readonly string[], at: readonly number[], first: number): [Source, number] {
  const marker = LIST_ITEM.exec(lines[first]!)!;
  const items: Source[] = [];
  let i = first;
  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]!);
    if (!m || m[1]!.length !== marker[1]!.length) break;
    const contentIndent = m[1]!.length + m[2]!.length + Math.max(1, m[3]!.length);
    const body = [lines[i]!.slice(Math.min(lines[i]!.length, contentIndent))];
    const start = i;
    i++;
    while (i < lines.length) {
      const line = lines[i]!;
      if (line.trim() === '') {
        const next = lines.slice(i + 1).find((l) => l.trim() !== '');
        if (next === undefined || indentOf(next) < contentIndent) break;
        body.push('');
      } else if (indentOf(line) >= contentIndent) body.push(line.slice(contentIndent));
      else if (LIST_ITEM.test(line) || body.at(-1) === '') break;
      else body.push(line.trim());
      i++;
    }
    let end = i - 1;
    while (end > start && lines[end]!.trim() === '') end--;
    const children = parse(body.slice(0, end - start + 1), at.slice(start, end + 1));
    items.push({ start: at[start]!, end: at[end]!, words: children.flatMap((c) => c.words), kind: 'container', children });
    while (i < lines.length && lines[i]!.trim() === '' && LIST_ITEM.test(lines.slice(i).find((l) => l.trim() !== '') ?? '')) i++;
  }
  const last = items.at(-1)!;
  return [{ start: items[0]!.start, end: last.end, words: items.flatMap((c) => c.words), kind: 'list', children: items }, i];
}

/** How alike two lists of words are, from 0 to 1 (both empty: a fair match, as two blank code lines). */
function likeness(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 0.6;
  if (a.length === 0 || b.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const w of a) counts.set(w, (counts.get(w) ?? 0) + 1);
  let common = 0;
  for (const w of b) {
    const c = counts.get(w) ?? 0;
    if (c > 0) {
      common++;
      counts.set(w, c - 1);
    }
  }
  return (2 * common) / (a.length + b.length);
}

/** Below this, a block and a stretch of the file are not taken for each other. */
const MIN_LIKENESS = 0.34;

/** Pairs blocks with stretches of the file, in order, as alike as can be (the best sum of likeness). */
function align(docs: readonly DocNode[], sources: readonly Source[]): [DocNode, Source][] {
  const n = docs.length;
  const m = sources.length;
  if (n === 0 || m === 0) return [];
  // Same count, and each pair alike enough: one for one (the usual case; blank code lines included).
  const words = docs.map(docWords);
  if (n === m && docs.every((_d, i) => likeness(words[i]!, sources[i]!.words) >= MIN_LIKENESS)) return docs.map((d, i) => [d, sources[i]!]);
  const score = Array.from({ length: n + 1 }, () => new Float64Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const like = likeness(words[i]!, sources[j]!.words);
      const pair = like >= MIN_LIKENESS ? like + score[i + 1]![j + 1]! : -1;
      score[i]![j] = Math.max(pair, score[i + 1]![j]!, score[i]![j + 1]!);
    }
  }
  const pairs: [DocNode, Source][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const like = likeness(words[i]!, sources[j]!.words);
    if (like >= MIN_LIKENESS && score[i]![j] === like + score[i + 1]![j + 1]!) {
      pairs.push([docs[i]!, sources[j]!]);
      i++;
      j++;
    } else if (score[i + 1]![j]! >= score[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

/** The line where a page file's body starts (0-based), past its frontmatter and title heading. */
function bodyStart(text: string): number {
  try {
    const { body } = readPageFile(text);
    const normal = text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
    if (normal.endsWith(body)) return normal.slice(0, normal.length - body.length).split('\n').length - 1;
  } catch {
    // Frontmatter that does not read: the whole file is body.
  }
  return 0;
}

/** Each block of the document with its lines in the file (blocks the file does not show are left out). */
export function blockSpans(fileText: string, document: unknown): BlockSpan[] {
  const nodes = ((document as DocNode | null)?.nodes ?? []).filter((n) => n.object === 'block');
  const lines = fileText
    .replace(/^\uFEFF/, '')
    .replace(/\r\n/g, '\n')
    .split('\n');
  const from = bodyStart(fileText);
  const body = lines.slice(from);
  const sources = parse(
    body,
    body.map((_l, k) => from + k),
  );
  const spans: BlockSpan[] = [];
  const walk = (docs: readonly DocNode[], srcs: readonly Source[], depth: number): void => {
    for (const [doc, src] of align(docs, srcs)) {
      if (doc.key) spans.push({ key: doc.key, type: doc.type ?? 'block', start: src.start + 1, end: src.end + 1, depth, fingerprint: blockFingerprint(doc) });
      const inner = blocksOf(doc);
      if (inner.length > 0 && src.children.length > 0) walk(inner, src.children, depth + 1);
    }
  };
  walk(nodes, sources, 0);
  return spans;
}

/** The block of a document with this key (at any depth), or null. */
export function findBlock(document: unknown, key: string): unknown {
  const walk = (nodes: readonly DocNode[]): DocNode | null => {
    for (const n of nodes) {
      if (n.object !== 'block') continue;
      if (n.key === key) return n;
      const inner = walk(n.nodes ?? []);
      if (inner) return inner;
    }
    return null;
  };
  return walk((document as DocNode | null)?.nodes ?? []);
}
