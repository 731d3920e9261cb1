/**
 * Size limits shared by `quire check`, the preview and sync's scan (the lead's scan imports
 * MAX_PAGE_BYTES from core/check), so a file is "too large" in exactly one sense everywhere.
 */

/**
 * The largest page file Quire pushes: 1 MiB of markdown.
 *
 * The API documents no size limit for page markdown, but a page travels inside one JSON
 * change-request request together with up to 49 other changes, and the one content size the
 * API does state is 1 MB for content sent inline (`insert_files` base64). Holding a page to
 * the same bound means a single page can never be the reason the server refuses a whole batch,
 * and it sits far above real GitBook pages (the editor becomes unusable long before: a 1 MiB
 * page is roughly 150,000 words).
 */
export const MAX_PAGE_BYTES = 1024 * 1024;

/**
 * The largest asset Quire can upload: the API takes inline (base64) files up to 1 MB
 * (sync/change-request.ts MAX_INLINE_FILE_BYTES states the same limit for the push).
 */
export const MAX_ASSET_BYTES = 1024 * 1024;
