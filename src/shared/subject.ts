/**
 * A change request's subject is one line of plain text, 1 to 100 characters (the API's limit),
 * whether it is typed in `quire cr` or in the app:
 * - line breaks (and tabs) become spaces: a subject written over two lines, or pasted from a
 *   commit message, means the same on one;
 * - any other control character is refused, not removed: it is invisible where the subject was
 *   typed, so removing it would send a subject the writer never saw, and an escape code (ESC or
 *   CSI, from pasted terminal output or a script) would recolour or move the cursor of every
 *   terminal that later shows the subject. The refusal names the character and where it is.
 * A subject Quire writes itself (from page titles) has such characters removed: no one to ask.
 */
export const MAX_SUBJECT_LENGTH = 100;

const LINE_BREAKS = /[ \t]*[\n\v\f\r\u0085\u2028\u2029][\s\u0085]*/g;

/** The subject on one line: line breaks and tabs as spaces, no spaces around it. */
export function oneLineSubject(text: string): string {
  return text.replace(LINE_BREAKS, ' ').replace(/\t/g, ' ').trim();
}

/** Why `subject` (on one line already: oneLineSubject) cannot be sent, e.g. "holds a control character (…) at character 5: …"; null when it can. */
export function subjectProblem(subject: string): string | null {
  const control = /\p{Cc}/u.exec(subject);
  if (control) {
    const code = control[0].charCodeAt(0);
    const name = code === 0x1b || code === 0x9b ? ', an escape code' : '';
    const hex = code.toString(16).toUpperCase().padStart(4, '0');
    return `holds a control character (U+${hex}${name}) at character ${control.index + 1}: a subject is one line of plain text; remove it`;
  }
  if (subject === '' || subject.length > MAX_SUBJECT_LENGTH) return `must be 1 to ${MAX_SUBJECT_LENGTH} characters; it has ${subject.length}`;
  return null;
}

/** A subject Quire writes itself: on one line, its control characters removed. */
export function cleanSubject(text: string): string {
  return oneLineSubject(text).replace(/\p{Cc}/gu, '');
}
