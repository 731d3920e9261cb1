/**
 * Finds the places in GitBook markdown where a reference (a link target) is written, and
 * rewrites them without touching a byte around them. The fake uses it in both directions:
 * reads render stored stable references (`/pages/<id>`) as relative links, writes resolve
 * submitted links to stable references.
 *
 * Reference sites: markdown links and images (`[t](x)`, `![a](<x y>)`), reference definitions
 * (`[label]: x`), `src`/`href` of `<img>` and `<a>` (so also inside `<figure>` and HTML tables),
 * and the GitBook blocks `{% content-ref url="x" %}`, `{% embed url="x" %}`, `{% file src="x" %}`,
 * `{% include "x" %}` and `{% openapi src="x" … %}` (legacy `{% swagger src="x" … %}`).
 *
 * Never rewritten: fenced code blocks (``` or ~~~, at any indentation, unclosed ones run to the
 * end), inline code spans, `$$` math (blocks and inline) and HTML comments. Indented code blocks
 * are not recognised: GitBook never writes them, and list continuations look the same.
 */

export type RefSiteKind = 'link' | 'image' | 'definition' | 'html' | 'content-ref' | 'embed' | 'file' | 'include';

export interface RefSite {
  kind: RefSiteKind;
  /** The target as written (without the `<…>` of a markdown destination). */
  target: string;
  /** Offsets of the target in the markdown. */
  start: number;
  end: number;
  /** Markdown links only: the whole `[text](target)` and its text. */
  link?: { start: number; end: number; text: string };
}

/** What a rewrite callback answers: a new target, `drop` (markdown links only: keep just the text), or undefined to keep. */
export type RefRewrite = string | { drop: true } | undefined;

export function findReferences(markdown: string): RefSite[] {
  const guarded = protectedRanges(markdown);
  const isProtected = (offset: number): boolean => guarded.some(([s, e]) => offset >= s && offset < e);
  const sites = [...markdownLinks(markdown), ...definitions(markdown), ...htmlAttributes(markdown), ...liquidTags(markdown)];
  return sites.filter((site) => !isProtected(site.link?.start ?? site.start)).sort((a, b) => a.start - b.start);
}

export function rewriteReferences(markdown: string, rewrite: (site: RefSite) => RefRewrite): string {
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const sites = findReferences(markdown);
  for (const site of sites) {
    const answer = rewrite(site);
    if (answer === undefined) continue;
    if (typeof answer === 'string') {
      if (answer !== site.target) edits.push({ start: site.start, end: site.end, text: encodeTarget(site, markdown, answer) });
      continue;
    }
    // Only links can be dropped; dropping one whose text holds other references would lose them.
    const link = site.kind === 'link' ? site.link : undefined;
    if (!link || sites.some((other) => other !== site && other.start > link.start && other.start < link.end)) continue;
    edits.push({ start: link.start, end: link.end, text: link.text });
  }
  edits.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const edit of edits) {
    if (edit.start < at) continue; // overlapping edits: the outer one already applied
    out += markdown.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + markdown.slice(at);
}

/** A new target in the syntax of its site: `<…>` for markdown destinations that need it, escaped quotes in attributes. */
function encodeTarget(site: RefSite, markdown: string, target: string): string {
  if (site.kind === 'link' || site.kind === 'image' || site.kind === 'definition') {
    const wrapped = markdown[site.start - 1] === '<' && markdown[site.end] === '>';
    return !wrapped && /[\s()<>]/.test(target) ? `<${target}>` : target;
  }
  return target.replace(/"/g, '&quot;');
}

// ---- what is never rewritten ---------------------------------------------------------------

function protectedRanges(markdown: string): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  let fence: { char: string; length: number; start: number } | undefined;
  let mathStart: number | undefined;
  let offset = 0;
  let proseStart = 0;
  const closeProse = (end: number): void => {
    if (end > proseStart) ranges.push(...inlineRanges(markdown, proseStart, end));
  };
  for (const line of markdown.split('\n')) {
    const lineEnd = offset + line.length;
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence) {
      if (marker && marker[0] === fence.char && marker.length >= fence.length && /^\s*[`~]+\s*$/.test(line)) {
        ranges.push([fence.start, lineEnd]);
        fence = undefined;
        proseStart = lineEnd;
      }
    } else if (mathStart !== undefined) {
      if (line.trim() === '$$') {
        ranges.push([mathStart, lineEnd]);
        mathStart = undefined;
        proseStart = lineEnd;
      }
    } else if (marker) {
      closeProse(offset);
      fence = { char: marker[0] ?? '`', length: marker.length, start: offset };
    } else if (line.trim() === '$$') {
      closeProse(offset);
      mathStart = offset;
    }
    offset = lineEnd + 1;
  }
  const end = markdown.length;
  if (fence) ranges.push([fence.start, end]);
  else if (mathStart !== undefined) ranges.push([mathStart, end]);
  else closeProse(end);
  return ranges;
}

/** Inline code spans, inline `$$…$$` math and HTML comments within prose. */
function inlineRanges(markdown: string, from: number, to: number): Array<[number, number]> {
  const text = markdown.slice(from, to);
  const ranges: Array<[number, number]> = [];
  for (const m of text.matchAll(/<!--[\s\S]*?-->|\$\$[^\n]*?\$\$/g)) ranges.push([from + m.index, from + m.index + m[0].length]);
  const runs = [...text.matchAll(/`+/g)];
  for (let i = 0; i < runs.length; i++) {
    const open = runs[i];
    if (!open) continue;
    const closeIndex = runs.findIndex((run, j) => j > i && run[0].length === open[0].length);
    if (closeIndex < 0) continue;
    const close = runs[closeIndex];
    if (!close) continue;
    const body = text.slice(open.index, close.index);
    if (/\n[ \t]*\n/.test(body)) continue; // a code span never crosses a blank line
    ranges.push([from + open.index, from + close.index + close[0].length]);
    i = closeIndex;
  }
  return ranges;
}

// ---- where references are -------------------------------------------------------------------

function markdownLinks(markdown: string): RefSite[] {
  const sites: RefSite[] = [];
  for (let idx = markdown.indexOf('](', 0); idx >= 0; idx = markdown.indexOf('](', idx + 2)) {
    if (isEscaped(markdown, idx)) continue;
    const open = openingBracket(markdown, idx);
    if (open === undefined) continue;
    const destination = parseDestination(markdown, idx + 2);
    if (!destination) continue;
    const image = open > 0 && markdown[open - 1] === '!' && !isEscaped(markdown, open - 1);
    const start = image ? open - 1 : open;
    sites.push({
      kind: image ? 'image' : 'link',
      target: markdown.slice(destination.start, destination.end),
      start: destination.start,
      end: destination.end,
      link: { start, end: destination.close + 1, text: markdown.slice(open + 1, idx) },
    });
  }
  return sites;
}

/** The `[` matching the `]` at `close`, within the same paragraph. */
function openingBracket(markdown: string, close: number): number | undefined {
  let depth = 0;
  for (let i = close - 1; i >= 0; i--) {
    const c = markdown[i];
    if (c === '\n' && markdown[i - 1] === '\n') return undefined;
    if (isEscaped(markdown, i)) continue;
    if (c === ']') depth++;
    else if (c === '[') {
      if (depth === 0) return i;
      depth--;
    }
  }
  return undefined;
}

/** A link destination and optional title starting at `from`, up to the closing `)`. */
function parseDestination(markdown: string, from: number): { start: number; end: number; close: number } | undefined {
  let i = from;
  while (markdown[i] === ' ' || markdown[i] === '\t') i++;
  let start: number;
  let end: number;
  if (markdown[i] === '<') {
    start = i + 1;
    const closing = markdown.indexOf('>', start);
    if (closing < 0 || markdown.slice(start, closing).includes('\n')) return undefined;
    end = closing;
    i = closing + 1;
  } else {
    start = i;
    let depth = 0;
    for (; i < markdown.length; i++) {
      const c = markdown[i] ?? '';
      if (c === '\\') {
        i++;
        continue;
      }
      if (/\s/.test(c)) break;
      if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0) break;
        depth--;
      }
    }
    end = i;
  }
  while (markdown[i] === ' ' || markdown[i] === '\t' || (markdown[i] === '\n' && markdown[i + 1] !== '\n')) i++;
  const quote = markdown[i];
  if (quote === '"' || quote === "'" || quote === '(') {
    const closing = markdown.indexOf(quote === '(' ? ')' : quote, i + 1);
    if (closing < 0) return undefined;
    i = closing + 1;
    while (markdown[i] === ' ' || markdown[i] === '\t') i++;
  }
  return markdown[i] === ')' ? { start, end, close: i } : undefined;
}

function isEscaped(text: string, index: number): boolean {
  let backslashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === '\\'; i--) backslashes++;
  return backslashes % 2 === 1;
}

function definitions(markdown: string): RefSite[] {
  const sites: RefSite[] = [];
  for (const m of markdown.matchAll(/^ {0,3}\[(?!\^)[^\]\n]+\]:[ \t]*(?:<([^>\n]*)>|(\S+))/gm)) {
    const target = m[1] ?? m[2] ?? '';
    const start = m.index + m[0].length - target.length - (m[1] !== undefined ? 1 : 0);
    sites.push({ kind: 'definition', target, start, end: start + target.length });
  }
  return sites;
}

function htmlAttributes(markdown: string): RefSite[] {
  const sites: RefSite[] = [];
  for (const tag of markdown.matchAll(/<(?:img|a)\b[^>]*>/gi)) {
    for (const attr of tag[0].matchAll(/\s(?:src|href)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
      const target = attr[1] ?? attr[2] ?? '';
      const start = tag.index + attr.index + attr[0].length - 1 - target.length;
      sites.push({ kind: 'html', target, start, end: start + target.length });
    }
  }
  return sites;
}

const LIQUID: Array<[RefSiteKind, RegExp]> = [
  ['content-ref', /\{%-?\s*content-ref\s+url\s*=\s*(?:"([^"]*)"|'([^']*)')/g],
  ['embed', /\{%-?\s*embed\s+url\s*=\s*(?:"([^"]*)"|'([^']*)')/g],
  ['file', /\{%-?\s*file\s+src\s*=\s*(?:"([^"]*)"|'([^']*)')/g],
  ['include', /\{%-?\s*include\s+(?:"([^"]*)"|'([^']*)')/g],
  // The OpenAPI document of an API block (and the legacy swagger one) is a file of the space.
  ['file', /\{%-?\s*(?:openapi|swagger)\s(?:[^%]|%(?!\}))*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)')/g],
];

function liquidTags(markdown: string): RefSite[] {
  const sites: RefSite[] = [];
  for (const [kind, pattern] of LIQUID) {
    for (const m of markdown.matchAll(pattern)) {
      const target = m[1] ?? m[2] ?? '';
      const start = m.index + m[0].length - 1 - target.length;
      sites.push({ kind, target, start, end: start + target.length });
    }
  }
  return sites;
}
