/**
 * SUMMARY.md against the files: GitBook's Git Sync builds the page tree from SUMMARY.md, so a
 * page file it does not list is not where the writer expects it (Git Sync drops it; Quire
 * pushes it at the end of its folder), an entry whose file is missing is a page that will not
 * exist, and a file listed twice is ambiguous.
 */
import { parseSummary, type SummaryEntry } from '../content';
import { type CheckedSpace, joinRoot } from './folder-index';
import type { Problem } from './problem';
import { SUMMARY_FILE } from './space-files';

export interface SummaryFindings {
  problems: Problem[];
  /** Space-relative paths SUMMARY.md lists; null when there is no readable SUMMARY.md. */
  listed: Set<string> | null;
}

function flatten(entries: readonly SummaryEntry[], out: SummaryEntry[] = []): SummaryEntry[] {
  for (const e of entries) {
    out.push(e);
    flatten(e.children, out);
  }
  return out;
}

const parsed = new WeakMap<object, SummaryEntry[]>();

/** SUMMARY.md's entries, parsed once per version of the file (the check, the navigation and the pager all ask). */
export function summaryEntries(file: { text: string | null }): SummaryEntry[] {
  const cached = parsed.get(file);
  if (cached) return cached;
  const entries = file.text === null ? [] : parseSummary(file.text);
  parsed.set(file, entries);
  return entries;
}

/** The space-relative file an entry's path names (a folder means its README.md). */
export function summaryEntryFile(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === path ? path : `${trimmed}/README.md`;
}

export function checkSummary(space: CheckedSpace): SummaryFindings {
  const summaryPath = joinRoot(space.folder, SUMMARY_FILE);
  const summary = space.files.find((f) => f.kind === 'summary');
  const pages = space.files.filter((f) => f.kind === 'page');
  const problems: Problem[] = [];
  if (!summary) {
    if (pages.length > 0) {
      problems.push({
        file: summaryPath,
        line: null,
        severity: 'warning',
        code: 'summary-missing',
        message: 'This space has no SUMMARY.md, so the order and nesting of its pages are unknown to GitBook.',
        fix: 'Run `quire sync` (it writes SUMMARY.md), or write one: `# Table of contents` and a `* [Title](path.md)` line per page.',
      });
    }
    return { problems, listed: null };
  }
  if (summary.text === null) return { problems, listed: null };

  const present = new Map(space.files.map((f) => [f.path, f]));
  const lowerPresent = new Map(space.files.map((f) => [f.path.toLowerCase(), f.path]));
  const firstLine = new Map<string, number>();
  for (const entry of flatten(summaryEntries(summary))) {
    if (entry.kind !== 'page' || entry.path === null) continue;
    const file = summaryEntryFile(entry.path);
    const seen = firstLine.get(file);
    if (seen !== undefined) {
      problems.push({
        file: summaryPath,
        line: entry.line,
        severity: 'error',
        code: 'summary-duplicate',
        message: `${file} is listed twice (first on line ${seen}); a page has one place in the tree.`,
        fix: 'Remove one of the two lines.',
      });
      continue;
    }
    firstLine.set(file, entry.line);
    if (present.get(file)?.kind === 'page') continue;
    const other = lowerPresent.get(file.toLowerCase());
    problems.push({
      file: summaryPath,
      line: entry.line,
      severity: 'error',
      code: 'summary-entry-without-file',
      message: `The entry "${entry.title}" lists ${file}, which does not exist.`,
      fix: other ? `Write the path as ${other} (the case differs).` : 'Create the file, fix the path, or remove the line.',
    });
  }
  const listed = new Set(firstLine.keys());
  for (const page of pages) {
    if (listed.has(page.path)) continue;
    problems.push({
      file: joinRoot(space.folder, page.path),
      line: null,
      severity: 'warning',
      code: 'not-in-summary',
      message: 'This page is not listed in SUMMARY.md: GitBook\u2019s Git Sync leaves it out, and Quire places it last in its folder.',
      fix: `Add \`* [Title](${page.path})\` to SUMMARY.md under its parent page.`,
    });
  }
  return { problems, listed };
}
