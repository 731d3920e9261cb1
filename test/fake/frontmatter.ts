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
 *   ---
 *
 *   # Page title
 *
 * Keys in GitBook's order (from GitBook-written files of GitbookIO/public-docs): `description`,
 * then `hidden`, `noIndex`, `noRobotsIndex` (only when true), then `icon`. `emoji` comes after
 * `icon`: an assumption, no GitBook-written file shows one. Layout, cover and tags are not
 * modelled by the fake, so never written. A page with none of these fields gets no frontmatter.
 */
import { Document } from 'yaml';
import type { PageRec } from './model';

const FOLD_AT = 80;

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
  const entries: Array<[string, string | boolean]> = [];
  if (page.description !== undefined && page.description !== '') entries.push(['description', page.description]);
  if (page.hidden) entries.push(['hidden', true]);
  if (page.noIndex) entries.push(['noIndex', true]);
  if (page.noRobotsIndex) entries.push(['noRobotsIndex', true]);
  if (page.icon !== undefined && page.icon !== '') entries.push(['icon', page.icon]);
  if (page.emoji !== undefined && page.emoji !== '') entries.push(['emoji', page.emoji]);
  return entries.map(([key, value]) => yamlEntry(key, value)).join('');
}

function yamlEntry(key: string, value: string | boolean): string {
  if (typeof value === 'string' && [...value].length > FOLD_AT && /^\S+(?: \S+)*$/u.test(value) && !/[\p{Cc}]/u.test(value)) {
    return `${key}: >-\n${fold(value)}\n`;
  }
  return new Document({ [key]: value }).toString({ lineWidth: 0, singleQuote: true });
}

/** Words greedily packed into lines of at most 80 columns, indented by two spaces. */
function fold(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (line !== '' && 2 + [...candidate].length > FOLD_AT) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  lines.push(line);
  return lines.map((l) => `  ${l}`).join('\n');
}
