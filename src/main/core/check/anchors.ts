/**
 * The anchors a page defines, for checking `page.md#anchor` links and for the preview's heading
 * ids: explicit ids (GitBook writes a heading's anchor as `## Title <a href="#x" id="x"></a>`
 * when it differs from the default; writers add `<a id>` / `<a name>` too) and the slug of every
 * heading.
 *
 * GitBook computes a heading's default anchor on its server and does not document the rule. Its
 * own docs (GitbookIO/public-docs, links its editor wrote to headings without an explicit
 * anchor) show it: lower case, `&` spelled `and`, dots and underscores kept, other punctuation
 * dropped, spaces as one hyphen, unicode letters kept, and `id-` before an anchor that starts
 * with a digit ("1. Create an app" → `id-1.-create-an-app`, "Math & TeX" → `math-and-tex`,
 * "Use DAG_CBOR" → `use-dag_cbor`). An expandable block (`<details>`) is reached by the anchor
 * its `<summary>` would give a heading (Lawnchair's help links to them). That is the id
 * the preview gives a heading. A link is accepted when its anchor, compared without case, is
 * an explicit id, or a heading's anchor in GitBook's spelling or GitHub's (one hyphen per
 * removed space: what writers copy from other tools), with runs of hyphens collapsed or not:
 * the check must not call a working link broken. A heading whose anchor repeats an earlier
 * one's gets `-1`, `-2`… (GitHub's rule; GitBook's docs show no repeat).
 */
import { lexMarkdown } from '../content';

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

const ESCAPABLE = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;

/**
 * Heading text without markup: tags, link and image syntax, emphasis and code markers, escapes.
 * Code spans and escaped characters stay as written, and so does an underscore inside a word
 * (`DAG_CBOR`): only underscores that open or close emphasis are markup.
 */
function headingText(raw: string): string {
  const s = raw.replace(/<[^>]*>/g, '').replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1');
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '\\' && ESCAPABLE.test(s[i + 1] ?? '')) {
      out += s[++i];
    } else if (c === '`') {
      let n = 1;
      while (s[i + n] === '`') n++;
      const fence = '`'.repeat(n);
      let close = s.indexOf(fence, i + n);
      while (close >= 0 && s[close + n] === '`') close = s.indexOf(fence, close + n + 1);
      if (close < 0) i += n - 1;
      else {
        out += s.slice(i + n, close);
        i = close + n - 1;
      }
    } else if (c === '_') {
      let j = i;
      while (s[j] === '_') j++;
      if (WORD.test(s[i - 1] ?? '') && WORD.test(s[j] ?? '')) out += s.slice(i, j);
      i = j - 1;
    } else if (c !== '*' && c !== '~') out += c;
  }
  return out.trim();
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
  for (const summary of expandableSummaries(markdown)) {
    add(summary.id.toLowerCase(), summary.id);
    for (const alias of [headingSlug(summary.text), collapse(headingSlug(summary.text))]) add(alias, summary.id);
  }
  if (!/\b(?:id|name)\s*=/i.test(markdown)) return anchors; // no HTML id anywhere: skip the tokenizer
  for (const atom of lexMarkdown(markdown).atoms) {
    if (atom.type !== 'html') continue;
    for (const a of atom.attributes) if ((a.name === 'id' || a.name === 'name') && a.value) add(a.value.value.toLowerCase(), a.value.value);
  }
  return anchors;
}

const SUMMARY_TAG = /^<summary\b[^>]*>([\s\S]*?)<\/summary\s*>/i;

/**
 * The `<summary>` of each expandable block (`<details>`), outside code, in order: GitBook gives
 * an expandable block the anchor its summary's text would give a heading, and links to it.
 */
export function expandableSummaries(markdown: string): { text: string; id: string }[] {
  if (!/<summary\b/i.test(markdown)) return [];
  const out: { text: string; id: string }[] = [];
  for (const atom of lexMarkdown(markdown).atoms) {
    if (atom.type !== 'html' || atom.name !== 'summary') continue;
    const m = SUMMARY_TAG.exec(markdown.slice(atom.at, atom.at + 4000));
    if (!m) continue;
    const text = headingText(unescapeEntities(m[1]!).replace(/\s+/g, ' '));
    if (text !== '') out.push({ text, id: gitbookAnchor(text) });
  }
  return out;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function unescapeEntities(html: string): string {
  return html.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (whole, e: string) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? whole;
    const code = e[1] === 'x' || e[1] === 'X' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
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
