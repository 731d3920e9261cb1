/**
 * The largest page file Quire pushes: 1 MiB of markdown. GitBook keeps a page's document as one
 * record and takes inline content up to 1 MB through its API (the bound it sets for inline
 * files); a page anywhere near it is far past what its editor handles well. A bigger file is
 * held and reported (split it into several pages), never pushed cut short.
 */
export const MAX_PAGE_BYTES = 1024 * 1024;
