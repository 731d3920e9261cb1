/**
 * SUMMARY.md against the files: GitBook's Git Sync builds the page tree from SUMMARY.md, so a
 * page file it does not list is not where the writer expects it (Git Sync drops it; Quire
 * pushes it at the end of its folder), an entry whose file is missing is a page that will not
 * exist, and a file listed twice is ambiguous.
 */
import { posix } from 'node:path';
import { parseSummary, type SummaryEntry } from '../content';
import { type CheckedSpace, joinRoot } from './folder-index';
import type { Problem } from './problem';
import { DEFAULT_STRUCTURE, SUMMARY_FILE } from './space-files';

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

/** The space-relative file an entry's path names (a folder means its README.md), from the folder of the table of contents. */
export function summaryEntryFile(path: string, summaryPath: string = SUMMARY_FILE): string {
  const trimmed = path.replace(/\/+$/, '');
  const file = trimmed === path ? path : `${trimmed}/README.md`;
  const dir = posix.dirname(summaryPath);
  return dir === '.' ? file : posix.normalize(posix.join(dir, file));
}

export function checkSummary(space: CheckedSpace): SummaryFindings {
  const structure = space.structure ?? DEFAULT_STRUCTURE;
  const summaryPath = joinRoot(space.folder, structure.summary);
  const summary = space.files.find((f) => f.kind === 'summary');
  const pages = space.files.filter((f) => f.kind === 'page');
  const problems: Problem[] = [];
  if (!summary) {
    // A .gitbook.yaml naming a table of contents that is not there says so itself (gitbook-yaml.ts).
    const named = space.gitbookYaml?.layoutApplied === true && structure.summary !== SUMMARY_FILE;
    if (pages.length > 0 && !named) {
      problems.push({
        file: summaryPath,
        line: null,
        severity: 'warning',
        code: 'summary-missing',
        message: 'This space has no SUMMARY.md, so the order and nesting of its pages are unknown to GitBook.',
        fix:
          space.spaceId === null
            ? 'Write one: `# Table of contents` and a `* [Title](path.md)` line per page (without one, GitBook orders the pages by their folders).'
            : 'Run `quire sync` (it writes SUMMARY.md), or write one: `# Table of contents` and a `* [Title](path.md)` line per page.',
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
    const file = summaryEntryFile(entry.path, summary.path);
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
    // The first page is the space's whether or not the table of contents lists it.
    if (listed.has(page.path) || page.path === structure.readme) continue;
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
