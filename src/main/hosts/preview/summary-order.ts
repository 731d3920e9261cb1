import { parseSummary, type SummaryEntry } from '../../core/content';
import { type CheckedSpace, summaryEntryFile } from '../../core/check';

/** The page files SUMMARY.md lists, in reading order (space-relative). */
export function summaryEntryOrder(space: CheckedSpace): string[] {
  const text = space.files.find((f) => f.kind === 'summary')?.text;
  if (!text) return [];
  const out: string[] = [];
  const walk = (entries: readonly SummaryEntry[]) => {
    for (const e of entries) {
      if (e.kind === 'page' && e.path !== null) out.push(summaryEntryFile(e.path));
      walk(e.children);
    }
  };
  walk(parseSummary(text));
  return out;
}
