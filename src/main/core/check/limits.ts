/**
 * Size limits `quire check` and the preview apply: the page limit is sync's own (content/limits.ts),
 * so a file is "too large" in exactly one sense everywhere.
 */

/** The largest page file Quire pushes (content/limits.ts says why 1 MiB). */
export { MAX_PAGE_BYTES } from '../content';

/**
 * The largest asset Quire can upload: the API takes inline (base64) files up to 1 MB
 * (sync/change-request.ts MAX_INLINE_FILE_BYTES states the same limit for the push).
 */
export const MAX_ASSET_BYTES = 1024 * 1024;
