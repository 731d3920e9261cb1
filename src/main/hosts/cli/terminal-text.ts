/**
 * Text from the server (titles, subjects, comment bodies, author names, its error messages)
 * is printed to a terminal, where control characters and escape sequences act: they can
 * recolour, move the cursor, rewrite what was printed before, set the window title, or hide
 * text behind bidirectional overrides. Every such character is shown instead as its
 * `\uXXXX` escape — visible, and still a valid escape inside the JSON that `--json` prints.
 *
 * `safeField` is for a server field inside a line Quire composes (line breaks too are escaped,
 * so a title cannot forge a line of its own); `terminalSafe` is applied to everything the
 * command line writes, as the last line of defence, and removes tokens as well.
 */
import { redactSecrets } from '../../core/secrets';

/**
 * Controls (Cc: C0, DEL and C1 — 0x9B alone starts an escape sequence in some terminals), the
 * Unicode line and paragraph separators, and the bidirectional formatting characters (the
 * "Trojan Source" overrides and isolates).
 */
const UNSAFE = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/gu;
/** The same, but line feeds and tabs stay: they are how Quire lays out its own output. */
const UNSAFE_BUT_LAYOUT = /(?![\n\t])[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}]/gu;

const visibleEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** A server string for one line of output: every control and formatting character escaped. */
export function safeField(text: string | null | undefined): string {
  return (text ?? '').replace(UNSAFE, visibleEscape);
}

/** Whatever the command line prints: tokens redacted, escape sequences and controls neutralised. */
export function terminalSafe(text: string): string {
  return redactSecrets(text).replace(UNSAFE_BUT_LAYOUT, visibleEscape);
}

/**
 * A text shown as one line where its own line breaks carry no meaning (a search snippet, the
 * words searched for): breaks and tabs become spaces, everything else as `safeField`.
 */
export function safeLine(text: string | null | undefined): string {
  return safeField((text ?? '').replace(/[\r\n\t]+/g, ' '));
}

/** A path as one shell word, so a command shown with it can be pasted as it is. */
export function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? safeField(path) : `'${safeField(path).replace(/'/g, `'\\''`)}'`;
}
