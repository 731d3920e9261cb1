/**
 * What `quire check` reports: one problem per finding, with where it is, how bad it is, what
 * is wrong and how to fix it. Hosts word the summary; the problem texts are written for a
 * writer reading them in a terminal, the preview or the app.
 */
import type { BlockProblemKind } from '../content';

/** error: the page will be wrong on the server (or refused); warning: probably not what you meant; info: for your information. */
export type Severity = 'error' | 'warning' | 'info';

export type ProblemCode =
  | 'broken-link'
  | 'missing-asset'
  | 'broken-anchor'
  | 'link-outside-folder'
  | 'asset-outside-assets'
  | 'unknown-page-id'
  | 'unknown-file-id'
  | 'not-in-summary'
  | 'summary-entry-without-file'
  | 'summary-duplicate'
  | 'summary-missing'
  | 'gitbook-yaml'
  | 'redirect-target'
  | 'redirect-shadowed'
  | 'frontmatter'
  /** An expression or condition naming a `space.vars.*` or `page.vars.*` that does not exist. */
  | 'unknown-variable'
  /** `{% %}` blocks: block-unclosed, block-unknown-block, block-mismatched-end, … (content/blocks.ts's kinds). */
  | `block-${BlockProblemKind}`
  | 'case-clash'
  | 'not-utf8'
  | 'too-large'
  | 'unused-asset'
  /** An OpenAPI block names what its local specification lacks, or the specification does not parse (openapi-blocks.ts). */
  | 'openapi-missing-operation'
  | 'openapi-unreadable-spec';

export interface Problem {
  /** The file, relative to the checked folder, with `/` separators. */
  file: string;
  /** 1-based line, or null when the problem is about the whole file. */
  line: number | null;
  severity: Severity;
  code: ProblemCode;
  /** What is wrong, in one sentence. */
  message: string;
  /** How to fix it, in one sentence. */
  fix: string;
}

export type SeverityCounts = Record<Severity, number>;

export function countBySeverity(problems: readonly Problem[]): SeverityCounts {
  const counts: SeverityCounts = { error: 0, warning: 0, info: 0 };
  for (const p of problems) counts[p.severity]++;
  return counts;
}

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** By file, then line (whole-file problems first), then severity: the order a writer fixes them in. */
export function sortProblems(problems: Problem[]): Problem[] {
  return problems.sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      (a.message < b.message ? -1 : a.message > b.message ? 1 : 0),
  );
}
