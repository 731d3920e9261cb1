/**
 * The anchors a page defines, for checking `page.md#anchor` links and for the preview's heading
 * ids: explicit ids (GitBook writes a heading's anchor as `## Title <a href="#x" id="x"></a>`;
 * writers add `<a id>` / `<a name>` too) and the slug of every heading.
 *
 * GitBook's own heading ids are computed by its server and not documented; its exports use the
 * lower-case, hyphenated form of the heading text. A link is accepted when its anchor equals an
 * explicit id or the heading's slug in either common spelling (GitHub's, which keeps one hyphen
 * per removed space, or with runs of hyphens collapsed), compared without case: the check must
 * not call a working link broken.
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
    let id = explicitId ?? headingSlug(text);
    if (explicitId === null) {
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      if (n > 0) id = `${id}-${n}`;
    }
    headings.push({ line: i + 1, level: m[1]!.length, text, explicitId, id });
  }
  return headings;
}

/** Every anchor a link may use to reach a place in this page (lower case). */
export function pageAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const h of pageHeadings(markdown)) {
    anchors.add(h.id.toLowerCase());
    const slug = headingSlug(h.text);
    anchors.add(slug);
    anchors.add(collapse(slug));
  }
  if (!/\b(?:id|name)\s*=/i.test(markdown)) return anchors; // no HTML id anywhere: skip the tokenizer
  for (const atom of lexMarkdown(markdown).atoms) {
    if (atom.type !== 'html') continue;
    for (const a of atom.attributes) if ((a.name === 'id' || a.name === 'name') && a.value) anchors.add(a.value.value.toLowerCase());
  }
  return anchors;
}

/** Whether `anchor` (decoded) names a place in a page with these anchors. */
export function hasAnchor(anchors: ReadonlySet<string>, anchor: string): boolean {
  const a = anchor.toLowerCase();
  return a === '' || anchors.has(a) || anchors.has(collapse(a));
}
