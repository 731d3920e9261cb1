/**
 * SUMMARY.md, GitBook's table of contents:
 *
 *   # Table of contents
 *
 *   * [Introduction](README.md)
 *   * [Guide](guide/README.md)
 *     * [Install](guide/install.md)
 *
 *   ## A group
 *
 *   * [Page](a-group/page.md)
 *   * [A link](https://example.com)
 *
 *   ---
 *
 *   * [A root page after a group](later.md)
 *
 * Root groups are `##` headings owning the list below them; a `---` line returns
 * to the root level. A group nested inside a page (the API does not send those) is
 * written as a bullet without a link. Paths are percent-encoded where Markdown or
 * URLs need it; titles are backslash-escaped.
 */
import type { PageKind } from './page-kind';

/** A page of the tree SUMMARY.md lists (sync's LayoutPage fits). */
export interface SummaryPage {
  id: string;
  title: string;
  pages?: readonly SummaryPage[];
  /** Link pages: where the link points. */
  href?: string;
  target?: { url?: string };
}

/** Where each page of the tree is in the folder (sync's LayoutPlan fits). */
export interface SummaryPlacement {
  pages: ReadonlyMap<string, { kind: PageKind; file: string | null }>;
}

export interface SummaryEntry {
  /** 'page': links to a file; 'link': links to a URL (or `#`); 'group': a heading or a bullet without a link. */
  kind: 'page' | 'link' | 'group';
  title: string;
  /** Pages only: relative POSIX path, URL-decoded and NFC (not checked for safety: use resolveInside). */
  path: string | null;
  /** Links only: the destination as written. */
  href: string | null;
  /** 1-based line in SUMMARY.md, for error messages. */
  line: number;
  children: SummaryEntry[];
}

const SUMMARY_HEADING = '# Table of contents';

// ---------------------------------------------------------------------------
// Rendering

const TITLE_SPECIALS = /[\\`*_[\]<>&#]/g;

function escapeTitle(title: string): string {
  const flat = title.replace(/[\r\n]+/g, ' ').replace(TITLE_SPECIALS, '\\$&');
  // A bullet starting with "1. " or "- " would start a nested list.
  return flat.replace(/^(\d+)([.)])/, '$1\\$2').replace(/^([-+])(?=\s|$)/, '\\$1');
}

/** What a path of only these characters needs: nothing (nearly every path; a large tree has tens of thousands). */
const PLAIN_PATH = /^[A-Za-z0-9\-._~/]*$/;

/** Percent-encodes what a Markdown link destination or URL cannot hold as is; keeps readable letters. */
function encodeSummaryPath(path: string): string {
  if (PLAIN_PATH.test(path)) return path;
  let out = '';
  for (const ch of path) {
    const keep = /^[A-Za-z0-9\-._~/]$/.test(ch) || (ch.codePointAt(0)! > 0x7f && !/[\p{Z}\p{C}]/u.test(ch));
    // encodeURIComponent leaves !'()* alone, and parentheses matter in Markdown links.
    out += keep ? ch : encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

function formatHref(href: string): string {
  const flat = href.replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  if (flat !== '' && /^[^\s()<>\\]*$/.test(flat)) return flat;
  return `<${flat.replace(/[\\<>]/g, '\\$&')}>`;
}

function linkHref(page: SummaryPage): string {
  return page.href ?? page.target?.url ?? '#';
}

function* itemLines(pages: readonly SummaryPage[], plan: SummaryPlacement, depth: number): Generator<string> {
  for (const page of pages) {
    const planned = plan.pages.get(page.id);
    const title = escapeTitle(String(page.title ?? ''));
    let text: string;
    if (planned?.kind === 'link') text = `[${title}](${formatHref(linkHref(page))})`;
    else if (planned?.file) text = `[${title}](${encodeSummaryPath(planned.file)})`;
    else text = title;
    yield `${'  '.repeat(depth)}* ${text}`;
    yield* itemLines(page.pages ?? [], plan, depth + 1);
  }
}

/**
 * SUMMARY.md for the tree, line by line (each without its newline), using the paths of `plan`
 * (sync's planLayout of the same tree). A tree of 20,000 pages makes several MB of text: a
 * writer can take it a block at a time, not hold it whole beside its bytes.
 */
export function* summaryLines(pages: readonly SummaryPage[], plan: SummaryPlacement): Generator<string> {
  yield SUMMARY_HEADING;
  let list: SummaryPage[] = [];
  let afterGroup = false;
  function* flushList(): Generator<string> {
    if (list.length === 0) return;
    yield '';
    if (afterGroup) yield* ['---', ''];
    yield* itemLines(list, plan, 0);
    list = [];
  }
  for (const page of pages) {
    if (plan.pages.get(page.id)?.kind !== 'group') {
      list.push(page);
      continue;
    }
    yield* flushList();
    const title = escapeTitle(String(page.title ?? ''));
    yield '';
    yield title === '' ? '##' : `## ${title}`;
    let first = true;
    for (const line of itemLines(page.pages ?? [], plan, 0)) {
      if (first) yield '';
      first = false;
      yield line;
    }
    afterGroup = true;
  }
  yield* flushList();
}

/** SUMMARY.md's text for the tree (summaryLines joined). */
export function renderSummary(pages: readonly SummaryPage[], plan: SummaryPlacement): string {
  return `${[...summaryLines(pages, plan)].join('\n')}\n`;
}

// ---------------------------------------------------------------------------
// Parsing

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Undoes Markdown backslash escapes and the common character references, in one pass. */
function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])|&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]+);/g, (whole, escaped, entity) => {
    if (escaped !== undefined) return escaped as string;
    const ref = entity as string;
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return Object.hasOwn(NAMED_ENTITIES, ref) ? NAMED_ENTITIES[ref]! : whole;
  });
}

interface LinkParts {
  text: string;
  destination: string;
}

/** Reads `[text](destination "optional title")` at the start of `s`; null if `s` is not a link. */
function readLink(s: string): LinkParts | null {
  if (s[0] !== '[') return null;
  let i = 1;
  let depth = 0;
  for (; i < s.length; i++) {
    const ch = s[i];
    if (ch === '\\') i++;
    else if (ch === '[') depth++;
    else if (ch === ']') {
      if (depth === 0) break;
      depth--;
    }
  }
  if (i >= s.length || s[i + 1] !== '(') return null;
  const text = s.slice(1, i);
  let j = i + 2;
  while (s[j] === ' ' || s[j] === '\t') j++;
  let destination = '';
  if (s[j] === '<') {
    const end = s.slice(j + 1).search(/(?<!\\)>/);
    if (end < 0) return null;
    destination = s.slice(j + 1, j + 1 + end);
  } else {
    let parens = 0;
    let k = j;
    for (; k < s.length; k++) {
      const ch = s[k];
      if (ch === '\\') k++;
      else if (ch === '(') parens++;
      else if (ch === ')') {
        if (parens === 0) break;
        parens--;
      } else if (ch === ' ' || ch === '\t') break;
    }
    destination = s.slice(j, k);
  }
  return { text, destination: destination.replace(/\\([!-/:-@[-`{-~])/g, '$1') };
}

function decodePath(destination: string): string {
  let decoded = destination.replace(/[?#].*$/, '');
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // Not valid percent-encoding: the user typed a literal '%'.
  }
  return decoded
    .normalize('NFC')
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/^\/+/, '');
}

/** A URL, an anchor, or a path from the site's root (a link page's target such as `/pages/<id>`): not a file of the folder. */
const isExternal = (destination: string): boolean => destination === '' || /^([a-zA-Z][a-zA-Z0-9+.-]*:|\/|#|\?)/.test(destination);

function entryFromBullet(content: string, line: number): SummaryEntry {
  const link = readLink(content);
  if (!link) return { kind: 'group', title: unescapeMarkdown(content.trim()), path: null, href: null, line, children: [] };
  const title = unescapeMarkdown(link.text);
  if (isExternal(link.destination)) return { kind: 'link', title, path: null, href: link.destination, line, children: [] };
  return { kind: 'page', title, path: decodePath(link.destination), href: null, line, children: [] };
}

const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*$/;
const BULLET = /^( *)(?:[*+-]|\d{1,9}[.)])[ \t]+(.*\S)[ \t]*$/;

/**
 * Reads the tree back from a (possibly hand-edited) SUMMARY.md. Tolerates `*`, `-`,
 * `+` and numbered bullets, any consistent indentation (tabs count as 4 spaces),
 * CRLF, a BOM, `<...>` destinations and link titles; ignores other lines.
 */
export function parseSummary(text: string): SummaryEntry[] {
  const root: SummaryEntry[] = [];
  let container = root;
  let stack: { indent: number; entry: SummaryEntry }[] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.replace(/\t/g, '    ');
    const lineNumber = index + 1;
    if (line.trim() === '') return;
    if (THEMATIC_BREAK.test(line)) {
      container = root;
      stack = [];
      return;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      if (heading[1]!.length === 1) return;
      // GitBook writes a group's anchor after its title: `## Group <a href="#group" id="group"></a>`.
      const content = (heading[2] ?? '')
        .replace(/(^|[ \t]+)#+$/, '')
        .replace(/\s*<a\b[^>]*>\s*<\/a>\s*$/i, '')
        .trim();
      const group: SummaryEntry = { kind: 'group', title: unescapeMarkdown(content), path: null, href: null, line: lineNumber, children: [] };
      root.push(group);
      container = group.children;
      stack = [];
      return;
    }
    const bullet = BULLET.exec(line);
    if (!bullet) return;
    const indent = bullet[1]!.length;
    const entry = entryFromBullet(bullet[2]!, lineNumber);
    while (stack.length > 0 && stack[stack.length - 1]!.indent >= indent) stack.pop();
    (stack[stack.length - 1]?.entry.children ?? container).push(entry);
    stack.push({ indent, entry });
  });
  return root;
}
