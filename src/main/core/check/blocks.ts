/**
 * GitBook `{% %}` blocks, from content/blocks.ts's scanner: unclosed and mismatched blocks,
 * stray end tags, unreadable tags and missing arguments are errors (GitBook cannot rebuild the
 * block, so text around it is swallowed or shown raw); misplaced and unterminated tags, and
 * tags on a line of HTML, are warnings (shown as text); a well-formed block of a name GitBook does not document is info
 * (Quire keeps it byte for byte, and GitBook keeps blocks it has no editor for); an
 * integration's block (`{% @vendor/block … %}`) is GitBook's to render and is no problem at all.
 */
import { type BlockProblem, type BlockProblemKind, scanBlocks } from '../content';
import type { Problem, ProblemCode, Severity } from './problem';

const SEVERITY: Record<BlockProblemKind, Severity> = {
  unclosed: 'error',
  'unexpected-end': 'error',
  'mismatched-end': 'error',
  'malformed-tag': 'error',
  'missing-argument': 'error',
  'unknown-block': 'info',
  misplaced: 'warning',
  'unterminated-tag': 'warning',
  'in-html': 'warning',
};

/**
 * Splits a scanner message ("line N: <what>: <how to fix>") into what and fix. The scanner words
 * both in one sentence; the split is at the last ": " (the fix never holds one).
 */
function splitBlockMessage(p: BlockProblem): { message: string; fix: string } {
  const text = p.message.replace(/^line \d+: /, '');
  const cut = text.lastIndexOf(': ');
  if (cut < 0) return { message: `${text}.`, fix: 'Fix the tag.' };
  const fix = text.slice(cut + 2);
  return { message: `${text.slice(0, cut)}.`, fix: `${fix[0]!.toUpperCase()}${fix.slice(1)}.` };
}

export function blockProblems(file: string, text: string, kinds?: ReadonlySet<BlockProblemKind>): Problem[] {
  return scanBlocks(text)
    .problems.filter((p) => !kinds || kinds.has(p.kind))
    .map((p) => ({ file, line: p.line, severity: SEVERITY[p.kind], code: `block-${p.kind}` as ProblemCode, ...splitBlockMessage(p) }));
}
