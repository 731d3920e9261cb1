/**
 * Offline full-text search over a sync folder: pages as the folder has them, comments and
 * replies. The index lives in the mirror (`mirror.search`); the sync engine and the review
 * store keep it current. Hosts search through here.
 *
 *   await indexNewSpaces(mirror, root);              // spaces not indexed yet, from their files
 *   searchFolder(mirror, '"getting started" inst*'); // ranked, with snippets
 */
export { indexNewSpaces, indexSpaceFolder } from './folder-index';
export { type FolderSearchHit, searchFolder } from './find';
export { type PageDocument, pageDocument, searchableMarkdown } from './page-document';
export { currentKeyAt, pageAtPath, pagePath } from './page-paths';
export type { SearchHit, SearchKind, SearchOptions, SnippetPart } from '../mirror';
export { checkQuerySize, MAX_QUERY_CHARS, MAX_QUERY_WORDS, SEARCH_KINDS, SearchQueryTooLargeError } from '../mirror';
