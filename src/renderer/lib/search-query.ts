/**
 * What the search box sends while a person types: the last word, unfinished, as a prefix
 * (`inst` → `inst*`), so results come as you type. Not inside an open phrase, not for
 * one letter (every word would match), not for FTS5's operators, and not once a space says
 * the word is done.
 */
export function asYouType(typed: string): string {
  if (typed.trim() === '' || /\s$/.test(typed)) return typed.trim();
  if ((typed.match(/"/g) ?? []).length % 2 === 1) return typed;
  const last = /(?:^|[\s(:])([\p{L}\p{N}_]+)$/u.exec(typed)?.[1];
  if (!last || last.length < 2 || /^(AND|OR|NOT|NEAR)$/.test(last)) return typed;
  return `${typed}*`;
}
