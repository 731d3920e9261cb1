import type { SummaryEntry } from '../../core/content';
import { type CheckedSpace, summaryEntries, summaryEntryFile } from '../../core/check';

/** The page files the space's table of contents lists, in reading order (space-relative). */
export function summaryEntryOrder(space: CheckedSpace): string[] {
  const file = space.files.find((f) => f.kind === 'summary');
  if (!file) return [];
  const out: string[] = [];
  const walk = (entries: readonly SummaryEntry[]) => {
    for (const e of entries) {
      if (e.kind === 'page' && e.path !== null) out.push(summaryEntryFile(e.path, file.path));
      walk(e.children);
    }
  };
  walk(summaryEntries(file));
  return out;
}
