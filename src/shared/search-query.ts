/**
 * How a person's search words are read, the same in the app's search box and in `quire search`:
 * a bare last word counts as the start of a word (`instal` finds “Install”), so results come as
 * you type and a half-remembered word still finds its page. Not inside an open phrase, not for
 * one letter (every word would match), not for FTS5's operators, and not once a space says the
 * word is done (the box only: the command line has no trailing space).
 */
export function prefixLastWord(typed: string): string {
  if (typed.trim() === '' || /\s$/.test(typed)) return typed.trim();
  if ((typed.match(/"/g) ?? []).length % 2 === 1) return typed;
  const last = /(?:^|[\s(:])([\p{L}\p{N}_]+)$/u.exec(typed)?.[1];
  if (!last || last.length < 2 || /^(AND|OR|NOT|NEAR)$/.test(last)) return typed;
  return `${typed}*`;
}
