/**
 * The anchors a page defines, for checking `page.md#anchor` links and for the preview's heading
 * ids: explicit ids (GitBook writes a heading's anchor as `## Title <a href="#x" id="x"></a>`
 * when it differs from the default; writers add `<a id>` / `<a name>` too) and the slug of every
 * heading.
 *
 * GitBook computes a heading's default anchor on its server and does not document the rule. Its
 * own docs (GitbookIO/public-docs, links its editor wrote to headings without an explicit
 * anchor) show it: lower case, `&` spelled `and`, dots kept, other punctuation dropped, spaces
 * as one hyphen, unicode letters kept, and `id-` before an anchor that starts with a digit
 * ("1. Create an app" → `id-1.-create-an-app`, "Math & TeX" → `math-and-tex`). That is the id
 * the preview gives a heading. A link is accepted when its anchor, compared without case, is
 * an explicit id, or a heading's anchor in GitBook's spelling or GitHub's (one hyphen per
 * removed space: what writers copy from other tools), with runs of hyphens collapsed or not:
 * the check must not call a working link broken. A heading whose anchor repeats an earlier
 * one's gets `-1`, `-2`… (GitHub's rule; GitBook's docs show no repeat).
 */
import { lexMarkdown } from '../content/markdown-lex';

export interface PageHeading {
  /** 1-based line. */
  line: number;
  level: number;
  /** The heading as plain text (markup removed). */
  text: string;
  /** Its explicit anchor (`<a id>` on the heading line), else null. */
  explicitId: string | null;
  /** The id the preview gives it: the explicit one, else the slug (numbered when it repeats). */
  id: string;
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const EXPLICIT_ID = /<a\b[^>]*\b(?:id|name)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))[^>]*>/i;

/** Heading text without markup: tags, link and image syntax, emphasis and code markers, escapes. */
function headingText(raw: string): string {
  return raw
    .replace(/<[^>]*>/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
    .replace(/[*_~`]/g, '')
    .trim();
}

/** The GitHub-style slug of a heading: lower case, letters/digits/marks, `-` and `_` kept, spaces become `-`. */
export function headingSlug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** GitBook's default anchor of a heading (see the module comment). */
export function gitbookAnchor(text: string): string {
  const slug = text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}. -]/gu, '')
    .trim()
    .replace(/[\s-]+/g, '-');
  return /^[0-9]/.test(slug) ? `id-${slug}` : slug;
}

const collapse = (slug: string): string => slug.replace(/-{2,}/g, '-').replace(/^-|-$/g, '');

/** The headings of a page outside code and frontmatter, in order. */
export function pageHeadings(markdown: string): PageHeading[] {
  const lines = markdown.split('\n');
  const headings: PageHeading[] = [];
  const seen = new Map<string, number>();
  let fence: string | null = null;
  let start = 0;
  if (/^\uFEFF?---[ \t]*\r?$/.test(lines[0] ?? '')) {
    const close = lines.findIndex((l, i) => i > 0 && /^(?:---|\.\.\.)[ \t]*\r?$/.test(l));
    if (close > 0) start = close + 1;
  }
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!.replace(/\r$/, '');
    const f = FENCE.exec(line);
    if (fence !== null) {
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = null;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    const m = ATX.exec(line);
    if (!m) continue;
    const raw = m[2] ?? '';
    const explicit = EXPLICIT_ID.exec(raw);
    const explicitId = explicit ? (explicit[1] ?? explicit[2] ?? explicit[3] ?? null) : null;
    const text = headingText(raw);
    let id = explicitId ?? gitbookAnchor(text);
    if (explicitId === null) {
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      if (n > 0) id = `${id}-${n}`;
    }
    headings.push({ line: i + 1, level: m[1]!.length, text, explicitId, id });
  }
  return headings;
}

/** Every anchor a link may use to reach a place in this page (lower case), each with the id of the element it reaches. */
export type PageAnchors = ReadonlyMap<string, string>;

export function pageAnchors(markdown: string): PageAnchors {
  const anchors = new Map<string, string>();
  const add = (alias: string, id: string) => {
    if (alias !== '' && !anchors.has(alias)) anchors.set(alias, id);
  };
  const headings = pageHeadings(markdown);
  for (const h of headings) add(h.id.toLowerCase(), h.id);
  for (const h of headings) {
    if (h.explicitId !== null) continue;
    const github = headingSlug(h.text);
    for (const alias of [github, collapse(github), collapse(h.id.toLowerCase())]) add(alias, h.id);
  }
  if (!/\b(?:id|name)\s*=/i.test(markdown)) return anchors; // no HTML id anywhere: skip the tokenizer
  for (const atom of lexMarkdown(markdown).atoms) {
    if (atom.type !== 'html') continue;
    for (const a of atom.attributes) if ((a.name === 'id' || a.name === 'name') && a.value) add(a.value.value.toLowerCase(), a.value.value);
  }
  return anchors;
}

/** The id of the place `anchor` (decoded) reaches in a page with these anchors; '' for the page itself; null when it reaches nothing. */
export function anchorTarget(anchors: PageAnchors, anchor: string): string | null {
  const a = anchor.toLowerCase();
  if (a === '') return '';
  return anchors.get(a) ?? anchors.get(collapse(a)) ?? null;
}

/** Whether `anchor` (decoded) names a place in a page with these anchors. */
export function hasAnchor(anchors: PageAnchors, anchor: string): boolean {
  return anchorTarget(anchors, anchor) !== null;
}
