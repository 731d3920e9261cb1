/** Frontmatter that does not parse: the server would get the `---` block as page text, or refuse the page. */
import { PageFileError, parsePageFile } from '../content';
import type { Problem } from './problem';

const DEFAULT_FIX = 'Fix the YAML between the two `---` lines (quote a value that holds `: ` or starts with a quote, `@` or `*`), then save.';

export function checkFrontmatter(file: string, text: string): Problem[] {
  try {
    parsePageFile(text);
    return [];
  } catch (err) {
    if (!(err instanceof PageFileError)) throw err;
    // PageFileError messages are "<what happened>. <what to do>."; keep the first part, give our own advice for generic endings.
    const cut = err.message.lastIndexOf('. ', err.message.length - 2);
    const message = cut > 0 ? err.message.slice(0, cut + 1) : err.message;
    const rest = cut > 0 ? err.message.slice(cut + 2) : '';
    const fix = rest === '' || /^Fix it and sync again\.?$/.test(rest) ? DEFAULT_FIX : rest;
    return [{ file, line: err.line ?? 1, severity: 'error', code: 'frontmatter', message, fix }];
  }
}
