/**
 * Text from the server or the folder (titles, paths, comment bodies) made safe to print: a
 * terminal must not receive escape sequences or control characters it would act on (moving
 * the cursor, retitling the window, hiding text), nor bidirectional overrides that reorder
 * what a person reads. Each such character is shown as a visible `\u{…}` escape instead.
 *
 * (A minimal helper: another change adds the CLI's shared one; this one can give way to it.)
 */

// Control characters (C0 but tab and newline, DEL, C1) and Unicode bidirectional controls.
const UNSAFE = /(?![\t\n])\p{Cc}|[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

const visible = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;

/** The text with unsafe characters escaped; newlines and tabs kept. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** The text on one line: unsafe characters escaped, line breaks and tabs as spaces. */
export function terminalLine(text: string): string {
  return terminalSafe(text.replace(/[\r\n\t]+/g, ' '));
}
