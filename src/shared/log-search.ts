import type { LogEntryVM } from './view-models';

/** What a sync log entry is found by, in lower case: its words, its pages (title, file, where from) and its files. */
export function logEntryText(e: LogEntryVM): string {
  const pages = e.activity?.pages.map((p) => `${p.title ?? ''} ${p.path ?? ''} ${p.from ?? ''}`).join(' ') ?? '';
  return `${e.message} ${pages} ${e.activity?.files.join(' ') ?? ''}`.toLowerCase();
}
