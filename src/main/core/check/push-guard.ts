/**
 * What would damage a page on the server if it were pushed as it is, for the planner to hold
 * the page with the reason (issue 12: "a page whose push would damage it on the server is held").
 * Only what changes the page's meaning on the server counts: frontmatter that does not parse (the
 * server would store the `---` block as text), and `{% %}` blocks whose structure cannot be
 * rebuilt (unclosed, closed out of order, or a tag that cannot be read: the rest of the page is
 * swallowed into the block). Everything else `quire check` finds is reported, never held.
 */
import type { BlockProblemKind } from '../content';
import { blockProblems } from './blocks';
import { checkFrontmatter } from './frontmatter';
import type { Problem } from './problem';

const DAMAGING_BLOCK_PROBLEMS: ReadonlySet<BlockProblemKind> = new Set(['unclosed', 'mismatched-end', 'malformed-tag']);

/** The problems that should hold `text` (a page file) back from a push; [] when it is safe to push. `file` names it in the problems. */
export function checkPageForPush(text: string, file = ''): Problem[] {
  return [...checkFrontmatter(file, text), ...blockProblems(file, text, DAMAGING_BLOCK_PROBLEMS)];
}

/** The sync engine's push guard (SyncEngineOptions.pushGuard): the first damaging problem, worded, or null. */
export function pushGuard(text: string, file: string): string | null {
  const [problem] = checkPageForPush(text, file);
  return problem ? `${problem.message} (line ${problem.line})` : null;
}
