/**
 * The head GitBook writes above a page body in Git Sync files, which the fake can put at the
 * start of `format=markdown` answers (settings `frontmatter` and `titleHeading`):
 *
 *   ---
 *   description: >-
 *     A description longer than 80 characters is folded, lines at most 80 columns
 *     wide; a shorter one stays on one line.
 *   hidden: true
 *   icon: rocket
 *   coverY: 0
 *   layout:
 *     title:
 *       visible: true
 *   ---
 *
 *   # Page title
 *
 * Written with js-yaml's `dump`, the serializer GitBook's files come out of (it gives back 553
 * of 594 GitBook-written frontmatter blocks of five Git Sync repositories byte for byte; the
 * others were written by hand in Git). Keys in GitBook's order, as those files show it:
 * `description`, `hidden`, `noIndex`, `noRobotsIndex` (only when true), `icon`, then `cover`,
 * `coverY`, `coverHeight`, `layout`, `tags`. Where no file shows two keys together (`emoji`
 * after `icon`; the hidden… group before the cover… group) the order is an assumption. A page
 * with none of these gets no frontmatter.
 */
import { dump } from 'js-yaml';
import type { PageRec } from './model';

export function pageHead(page: PageRec, options: { frontmatter: boolean; titleHeading: boolean }): string {
  const parts: string[] = [];
  if (options.frontmatter) {
    const yaml = frontmatterYaml(page);
    if (yaml !== '') parts.push(`---\n${yaml}---\n`);
  }
  if (options.titleHeading) parts.push(`# ${page.title.replace(/[ \t]*[\r\n]+[ \t]*/g, ' ')}\n`);
  return parts.join('\n');
}

/** `head` then the body, one blank line between them. */
export function withHead(head: string, body: string): string {
  if (head === '') return body;
  return body === '' ? head : `${head}\n${body}`;
}

export function frontmatterYaml(page: PageRec): string {
  return gitSyncFrontmatter(page);
}

/** The frontmatter YAML GitBook writes for these fields ('' when none is set): its keys, in its order, through its serializer. */
export function gitSyncFrontmatter(fields: {
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  icon?: string;
  emoji?: string;
  cover?: string;
  coverY?: number;
  coverHeight?: number;
  layout?: Readonly<Record<string, unknown>> | string;
  tags?: readonly string[];
}): string {
  const data: Record<string, unknown> = {};
  if (fields.description !== undefined && fields.description !== '') data.description = fields.description;
  if (fields.hidden) data.hidden = true;
  if (fields.noIndex) data.noIndex = true;
  if (fields.noRobotsIndex) data.noRobotsIndex = true;
  if (fields.icon !== undefined && fields.icon !== '') data.icon = fields.icon;
  if (fields.emoji !== undefined && fields.emoji !== '') data.emoji = fields.emoji;
  if (fields.cover !== undefined) data.cover = fields.cover;
  if (fields.coverY !== undefined) data.coverY = fields.coverY;
  if (fields.coverHeight !== undefined) data.coverHeight = fields.coverHeight;
  if (fields.layout !== undefined) data.layout = fields.layout;
  if (fields.tags !== undefined && fields.tags.length > 0) data.tags = fields.tags;
  return Object.keys(data).length === 0 ? '' : dump(data, { noRefs: true });
}
