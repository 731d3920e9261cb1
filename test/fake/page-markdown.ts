/**
 * The `markdown` of a `format=markdown` page answer: the stored body, its references rendered
 * for `format.markdown.refs` when the fake models stable references, under the head (frontmatter
 * and/or `# Title`) the settings ask for.
 */
import { pageHead, withHead } from './frontmatter';
import type { MarkdownSettings } from './markdown-settings';
import type { PageRec, RevisionRec } from './model';
import { PageIndex } from './page-index';
import { renderRelative } from './stable-refs';

export type RefsFormat = 'relative' | 'stable';

export function pageMarkdown(revision: RevisionRec, page: PageRec, settings: Readonly<MarkdownSettings>, refs: RefsFormat): string {
  const body =
    settings.stableRefs && refs === 'relative' ? renderRelative(page.markdown, PageIndex.ofRevision(revision), page.id, settings.readmeLinks) : page.markdown;
  return withHead(pageHead(page, settings), body);
}
