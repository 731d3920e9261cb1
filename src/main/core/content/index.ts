/**
 * The GitBook page format, pure (no I/O): a page file (YAML frontmatter, `# Title`, body),
 * how two page files compare, SUMMARY.md, and the kinds of pages a space holds.
 */
export { PageFileError, parsePageFile, pickPageMeta, renderPageFile, type PageMeta } from './frontmatter';
export { pageKind, type PageKind } from './page-kind';
export { canonicalPageText, pageTitleOf, samePageText } from './page-text';
export { parseSummary, renderSummary, type SummaryEntry } from './summary';
