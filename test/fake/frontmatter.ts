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
  const data: Record<string, unknown> = {};
  if (page.description !== undefined && page.description !== '') data.description = page.description;
  if (page.hidden) data.hidden = true;
  if (page.noIndex) data.noIndex = true;
  if (page.noRobotsIndex) data.noRobotsIndex = true;
  if (page.icon !== undefined && page.icon !== '') data.icon = page.icon;
  if (page.emoji !== undefined && page.emoji !== '') data.emoji = page.emoji;
  if (page.cover !== undefined) data.cover = page.cover;
  if (page.coverY !== undefined) data.coverY = page.coverY;
  if (page.coverHeight !== undefined) data.coverHeight = page.coverHeight;
  if (page.layout !== undefined) data.layout = page.layout;
  if (page.tags !== undefined && page.tags.length > 0) data.tags = page.tags;
  return Object.keys(data).length === 0 ? '' : dump(data, { noRefs: true });
}
