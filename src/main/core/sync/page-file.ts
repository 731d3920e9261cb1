/**
 * A page's file text (stable form: references by id) from what the server sends: its page
 * fields, and its markdown, which may or may not start with YAML frontmatter and with a
 * `# Title` heading. Both forms give the same file: one frontmatter block (the frontmatter's
 * metadata merged with the page's fields, the fields winning), one title heading, the body
 * untouched. Nothing of the frontmatter ever ends up in the body.
 */
import { type PageMeta, parseYamlMapping, pickPageMeta, renderPageFile } from '../content';

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * The metadata a page file carries: the page fields worth a round trip, without `layout` (the
 * API sends it for every page, it would put a dozen lines of display switches on every file,
 * and an update without it leaves the page's layout as it is).
 */
export function fileMeta(fields: Readonly<Record<string, unknown>>): PageMeta {
  const { layout: _layout, ...meta } = pickPageMeta(fields);
  return meta;
}

export function pageFileFromServer(page: { title: string; meta: PageMeta }, markdown: string): string {
  let body = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let fromFrontmatter: Record<string, unknown> = {};
  const fm = FRONTMATTER.exec(body);
  if (fm) {
    // A block that is not a mapping is left in the body, as sent.
    const parsed = parseYamlMapping(fm[1] ?? '');
    if (parsed !== null) {
      fromFrontmatter = parsed;
      body = body.slice(fm[0].length);
    }
  }
  body = stripTitleHeading(body, page.title);
  const meta = { ...fileMeta(fromFrontmatter), ...page.meta };
  return renderPageFile({ title: page.title, meta, body });
}

/** Drops a leading `# Title` heading that says the page's title (after blank lines), and the blank line after it. */
function stripTitleHeading(body: string, title: string): string {
  const heading = /^(?:[ \t]*\n)*#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*(?:\n|$)/.exec(body);
  if (!heading) return body;
  const text = (heading[1] ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1').trim();
  if (text !== title.trim()) return body;
  return body.slice(heading[0].length).replace(/^[ \t]*\n/, '');
}
