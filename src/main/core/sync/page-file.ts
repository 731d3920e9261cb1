/**
 * A page's file text (stable form: references by id) from what the server sends: its page
 * fields, and its markdown, which may or may not start with YAML frontmatter and with a
 * `# Title` heading. Both forms give the same file: one frontmatter block, one title heading,
 * the body untouched. Nothing of the frontmatter ever ends up in the body.
 *
 * The frontmatter keeps every key: the server's block as it sent it (GitBook's Git Sync form:
 * `cover`, `coverY`, `layout`…), the page's fields over it. When the page has a file (`local`: its
 * text now), that file's block is kept as its writer wrote it and changed only where the server's
 * values differ, in place: an untouched block stays byte for byte. When the server sends no
 * frontmatter, the keys its fields do not report (`coverY`, `layout`, `tags`, a writer's own) are
 * what the server was last known to hold (`known`: the text last pushed or pulled), and its fields
 * decide the rest. The values are always the server's: only the formatting is the writer's.
 */
import {
  API_META_KEYS,
  assemblePageFile,
  fitsHeading,
  frontmatterFor,
  PAGE_VARIABLES_KEY,
  type PageMeta,
  parseYamlMapping,
  pickPageMeta,
  readPageFile,
} from '../content';

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/;

/**
 * The metadata a page file carries from the page's fields: those worth a round trip, without
 * `layout` and `cover` (the API's forms of them are not Git Sync's: a file holds Git Sync's
 * `layout:` with `visible` switches and `cover:`/`coverY:` from the server's frontmatter or its
 * writer, and an update without them leaves the page's layout and cover as they are), the
 * page's `variables` under `vars:`, as Git Sync writes them.
 */
export function fileMeta(fields: Readonly<Record<string, unknown>>): PageMeta {
  const { layout: _layout, cover: _cover, variables, ...meta } = pickPageMeta(fields);
  return variables === undefined ? meta : { ...meta, [PAGE_VARIABLES_KEY]: variables };
}

/** Texts a page's new text takes from (see the module comment): none when the page is new here. */
export interface PageTemplates {
  /** What the server was last known to hold (pushed, else pulled). */
  known?: string | null;
  /** The page's file now. */
  local?: string | null;
}

export function pageFileFromServer(page: { title: string; meta: PageMeta }, markdown: string, templates: PageTemplates = {}): string {
  let body = markdown.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let sent: { data: Record<string, unknown>; yaml: string } | null = null;
  const fm = FRONTMATTER.exec(body);
  if (fm) {
    // A block that is not a mapping is left in the body, as sent.
    const parsed = parseYamlMapping(fm[1] ?? '');
    if (parsed !== null) {
      sent = { data: parsed, yaml: fm[1] ? `${fm[1]}\n` : '' };
      body = body.slice(fm[0].length);
    }
  }
  body = stripTitleHeading(body, page.title);
  return composePageFile(page, body, sent, templates);
}

/**
 * A page's text now when only its title or fields changed (its body did not): the last synced
 * text with them (the frontmatter as `local`, the page's file now, has it). Null when that text
 * cannot be read.
 */
export function retitledText(baseText: string | null, page: { title: string; meta: PageMeta }, local: string | null = null): string | null {
  if (baseText === null) return null;
  try {
    return composePageFile(page, readPageFile(baseText).body, null, { known: baseText, local: local ?? baseText });
  } catch {
    return null;
  }
}

function composePageFile(
  page: { title: string; meta: PageMeta },
  body: string,
  sent: { data: Record<string, unknown>; yaml: string } | null,
  templates: PageTemplates,
): string {
  const known = blockOf(templates.known ?? null);
  const local = blockOf(templates.local ?? null);
  let meta: PageMeta;
  if (sent) meta = { ...sent.data, ...page.meta };
  else {
    // The fields the API reports decide those keys; the others are what the server was last known to hold.
    const own = Object.entries(known?.data ?? {}).filter(([k]) => !API_META_KEYS.includes(k));
    meta = { ...Object.fromEntries(own), ...page.meta };
  }
  const yaml = frontmatterFor(local?.yaml ?? known?.yaml ?? sent?.yaml ?? null, meta, page.title);
  return assemblePageFile(yaml, fitsHeading(page.title) ? page.title : undefined, body);
}

/** The frontmatter block of a page file as written, and its data; null without one (or when it does not parse). */
function blockOf(text: string | null): { data: Record<string, unknown>; yaml: string } | null {
  if (text === null) return null;
  try {
    const read = readPageFile(text);
    return read.frontmatter === null ? null : { data: read.meta, yaml: read.frontmatter };
  } catch {
    return null;
  }
}

/** Drops a leading `# Title` heading that says the page's title (after blank lines), and the blank line after it. */
function stripTitleHeading(body: string, title: string): string {
  const heading = /^(?:[ \t]*\n)*#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*(?:\n|$)/.exec(body);
  if (!heading) return body;
  const text = (heading[1] ?? '').replace(/\\([!-/:-@[-`{-~])/g, '$1').trim();
  if (text !== title.trim()) return body;
  return body.slice(heading[0].length).replace(/^[ \t]*\n/, '');
}
