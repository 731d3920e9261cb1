/**
 * The largest page file Quire pushes: 1 MiB of markdown. GitBook keeps a page's document as one
 * record and takes inline content up to 1 MB through its API (the bound it sets for inline
 * files); a page anywhere near it is far past what its editor handles well. A bigger file is
 * held and reported (split it into several pages), never pushed cut short.
 */
export const MAX_PAGE_BYTES = 1024 * 1024;

/** The length of `s` in UTF-8 (a lone surrogate as U+FFFD, as TextEncoder writes it), counted without encoding it. */
export function utf8Length(s: string): number {
  let bytes = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    const pair = c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (!pair) bytes += c < 0x800 ? 1 : 2;
    else {
      bytes += 2; // two units, four bytes
      i++;
    }
  }
  return bytes;
}
