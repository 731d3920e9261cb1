/** Markdown handling of the fake: frontmatter, titles, slugs, content ids, JSON documents. */
import { createHash } from 'node:crypto';
import { parse as parseYaml } from 'yaml';

export interface PageMetadata {
  title?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** Git Sync's keys: null when a frontmatter block does not hold them (a document clears them). */
  cover?: string | null;
  coverY?: number | null;
  coverHeight?: number | null;
  layout?: Record<string, unknown> | null;
  tags?: string[] | null;
}

export interface ParsedMarkdown {
  /** Body to store: frontmatter removed (and the leading `# heading` when it became the title). */
  body: string;
  metadata: PageMetadata;
}

export class MarkdownError extends Error {}

const FRONTMATTER = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
// An ATX heading; a closing run of `#` counts only after a space (`# C#` is titled "C#").
const LEADING_HEADING = /^(?:[ \t]*\r?\n)*# +(.+?)(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/;

const BOOLEAN_KEYS = ['hidden', 'noIndex', 'noRobotsIndex'] as const;

/**
 * Splits submitted markdown into stored body and page metadata. Frontmatter keys `title`,
 * `description`, `icon`, `emoji`, `hidden`, `noIndex` and `noRobotsIndex` set metadata, and so do
 * Git Sync's `cover`, `coverY`, `coverHeight`, `layout` and `tags` (a block without one clears
 * it); other keys (`if`, `vars`, a writer's own, …) are accepted and ignored, as GitBook drops them. The title comes from
 * `explicitTitle`, else frontmatter `title`, else a leading `# heading` (which is then removed
 * from the body, as the page title is rendered separately). With `documentFirst` (GitBook's
 * import precedence) the frontmatter and the heading win over `explicitTitle`, and a leading
 * heading is always removed.
 */
export function parseSubmittedMarkdown(markdown: string, explicitTitle?: string, options: { documentFirst?: boolean } = {}): ParsedMarkdown {
  let body = markdown.replace(/\r\n/g, '\n');
  const metadata: PageMetadata = {};
  const fm = FRONTMATTER.exec(body);
  if (fm) {
    let data: unknown;
    try {
      data = parseYaml(fm[1] ?? '');
    } catch (error) {
      throw new MarkdownError(`the YAML frontmatter does not parse: ${(error as Error).message.split('\n')[0]}`);
    }
    if (data !== null && data !== undefined) {
      if (typeof data !== 'object' || Array.isArray(data)) throw new MarkdownError('the YAML frontmatter must be a mapping of keys to values');
      const record = data as Record<string, unknown>;
      for (const key of ['title', 'description', 'icon', 'emoji'] as const) {
        const value = record[key];
        if (value === undefined || value === null) continue;
        if (typeof value !== 'string' && typeof value !== 'number') throw new MarkdownError(`frontmatter \`${key}\` must be a string`);
        metadata[key] = String(value);
      }
      for (const key of BOOLEAN_KEYS) {
        const value = record[key];
        if (value === undefined || value === null) continue;
        if (typeof value !== 'boolean') throw new MarkdownError(`frontmatter \`${key}\` must be true or false`);
        metadata[key] = value;
      }
      readGitSyncKeys(record, metadata);
    } else {
      readGitSyncKeys({}, metadata);
    }
    body = body.slice(fm[0].length);
  }
  if (options.documentFirst) {
    const heading = LEADING_HEADING.exec(body);
    if (heading) {
      metadata.title ??= (heading[1] ?? '').trim();
      body = body.slice(heading[0].length);
    }
    // GitBook keeps a document, not text: blank lines before the first block are not part of it.
    body = body.replace(/^(?:[ \t]*\n)+/, '');
    if (metadata.title === undefined && explicitTitle !== undefined) metadata.title = explicitTitle;
  } else if (explicitTitle !== undefined) {
    metadata.title = explicitTitle;
  } else if (metadata.title === undefined) {
    const heading = LEADING_HEADING.exec(body);
    if (heading) {
      metadata.title = (heading[1] ?? '').trim();
      body = body.slice(heading[0].length).replace(/^(?:[ \t]*\n)+/, '');
    }
  }
  return { body: normaliseBody(body), metadata };
}

/** Git Sync's frontmatter keys, checked as GitBook would (a missing key is null: the document clears it). */
function readGitSyncKeys(record: Record<string, unknown>, metadata: PageMetadata): void {
  const { cover, coverY, coverHeight, layout, tags } = record;
  if (cover !== undefined && cover !== null && typeof cover !== 'string') throw new MarkdownError('frontmatter `cover` must be a path');
  for (const [key, value] of [
    ['coverY', coverY],
    ['coverHeight', coverHeight],
  ] as const) {
    if (value !== undefined && value !== null && typeof value !== 'number') throw new MarkdownError(`frontmatter \`${key}\` must be a number`);
  }
  if (layout !== undefined && layout !== null && (typeof layout !== 'object' || Array.isArray(layout)))
    throw new MarkdownError('frontmatter `layout` must be a mapping');
  if (tags !== undefined && tags !== null && (!Array.isArray(tags) || tags.some((t) => typeof t !== 'string')))
    throw new MarkdownError('frontmatter `tags` must be a list of names');
  metadata.cover = (cover as string | undefined) ?? null;
  metadata.coverY = (coverY as number | undefined) ?? null;
  metadata.coverHeight = (coverHeight as number | undefined) ?? null;
  metadata.layout = (layout as Record<string, unknown> | undefined) ?? null;
  metadata.tags = (tags as string[] | undefined) ?? null;
}

/** Storage normalisation: LF line endings, no trailing blank lines, one final newline. */
export function normaliseBody(markdown: string): string {
  const trimmed = markdown.replace(/\r\n/g, '\n').trimEnd();
  return trimmed === '' ? '' : `${trimmed}\n`;
}

/**
 * A comment's markdown as GitBook's serializer writes it back from its document: emphasis with
 * underscores, strong with asterisks, bullets with `-`, line by line (code is not special-cased).
 */
export function serializeCommentMarkdown(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) =>
      line
        .replace(/^(\s*)[*+](\s+)/, '$1-$2')
        .replace(/__(?=\S)(.+?)(?<=\S)__/g, '**$1**')
        .replace(/(?<![*\w])\*(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?![*\w])/g, '_$1_'),
    )
    .join('\n');
}

export function documentIdFor(pageId: string, markdown: string): string {
  return `doc_${createHash('sha1').update(pageId).update('\0').update(markdown).digest('hex').slice(0, 20)}`;
}

export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’"]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return slug === '' ? 'page' : slug;
}

/**
 * A minimal GitBook JSON document for `format=document` answers: headings and paragraphs
 * carrying the raw markdown text of each block. Enough for clients that only need a valid
 * document shape; clients wanting the content ask for `format=markdown`.
 */
export function markdownToJsonDocument(markdown: string): Record<string, unknown> {
  const blocks = markdown
    .split(/\n{2,}/)
    .map((b) => b.trim())
    .filter((b) => b !== '');
  const nodes = blocks.map((block) => {
    const heading = /^(#{1,3}) +(.*)$/.exec(block);
    const text = heading ? (heading[2] ?? '') : block;
    const leaves = [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }];
    return heading
      ? { object: 'block', type: `heading-${heading[1]?.length ?? 1}`, nodes: leaves, data: {} }
      : { object: 'block', type: 'paragraph', nodes: leaves };
  });
  return { object: 'document', data: {}, nodes };
}
