/**
 * Comparing page files by what they mean to the server rather than byte by byte.
 *
 * The server stores a page as title + metadata + body and renders it back with its
 * own spacing: the file a writer saved and the file a later pull writes differ in
 * blank lines, line endings and frontmatter key order even when nothing changed.
 * Change detection uses the canonical form below, so such differences are never
 * mistaken for edits (which would push no-op edits or raise false conflicts).
 */
import { parsePageFile, renderPageFile, significantMeta } from './frontmatter';

/** LF line endings, no leading or trailing blank lines, one final newline ('' stays ''). */
export function normaliseBody(body: string): string {
  const trimmed = body
    .replace(/\r\n?/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '');
  return trimmed === '' ? '' : `${trimmed}\n`;
}

/**
 * The canonical text of a page file: title heading, its metadata (every key, the API's own
 * fields without their defaults), normalised body. A file whose frontmatter does not parse is its own canonical form
 * (line endings aside), so any edit to it still counts.
 */
export function canonicalPageText(text: string): string {
  try {
    const parsed = parsePageFile(text);
    const meta = significantMeta(parsed.meta);
    const body = normaliseBody(parsed.body);
    return renderPageFile(parsed.title === null ? { meta, body } : { title: parsed.title, meta, body });
  } catch {
    return text.replace(/\r\n?/g, '\n');
  }
}

/** True when two page files say the same thing to the server. */
export function samePageText(a: string | null | undefined, b: string | null | undefined): boolean {
  if (a === b) return true;
  if (a == null || b == null) return false;
  return canonicalPageText(a) === canonicalPageText(b);
}

/** The page title a file carries (heading or frontmatter), or null. */
export function pageTitleOf(text: string): string | null {
  try {
    return parsePageFile(text).title;
  } catch {
    return null;
  }
}
