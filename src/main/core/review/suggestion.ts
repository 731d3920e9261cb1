/**
 * Suggested changes, as GitHub writes them: a comment on a line whose body holds a fenced
 * ```` ```suggestion ```` block, the text that should replace the lines of the block the comment
 * is on. Applying one writes it into the writer's own file (the next sync pushes it) — only
 * when those lines are still what the reviewer saw, in the change request and in the file;
 * otherwise nothing is written and it says so.
 */
import { join } from 'node:path';
import { readText, recordSyncedBaselines, writeFileReplacing } from '../history';
import type { Mirror } from '../mirror';
import { threadPlaces } from './anchors';

/** The replacement lines of the first ```suggestion block of a comment (none: deletes the lines); null when it has none. */
export function suggestionOf(markdown: string): string[] | null {
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  const open = lines.findIndex((l) => /^ {0,3}(`{3,}|~{3,})[ \t]*suggestion[ \t]*$/.test(l));
  if (open < 0) return null;
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[open]!)![1]!;
  const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
  const end = lines.findIndex((l, i) => i > open && close.test(l));
  return lines.slice(open + 1, end < 0 ? lines.length : end);
}

export class SuggestionError extends Error {
  override name = 'SuggestionError';
  constructor(
    message: string,
    /** none: nothing to apply; changed: its lines changed since (the refusal); needs-server: where it was made is not read yet. */
    readonly reason: 'none' | 'changed' | 'needs-server' | 'no-file',
  ) {
    super(message);
  }
}

export interface AppliedSuggestion {
  spaceId: string;
  pageId: string;
  /** The file written, relative to the sync folder. */
  file: string;
  /** The first line replaced, and how many were replaced by how many. */
  line: number;
  replaced: number;
  by: number;
}

/** Where a run of lines is in a file: each place it starts (1-based). */
function occurrences(lines: readonly string[], run: readonly string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i + run.length <= lines.length; i++) if (run.every((l, k) => lines[i + k] === l)) found.push(i + 1);
  return found;
}

/**
 * Writes the suggestion of comment `commentId` into the writer's file of its page: the lines
 * of the block it is on, as they were when it was made, are replaced by its suggestion. The
 * file's text before is kept in history. Throws SuggestionError, and writes nothing, when the
 * comment holds no suggestion, is not on a line, or its lines changed since (in the change
 * request, or in the file). The caller holds the folder's turn.
 */
export async function applySuggestion(
  mirror: Mirror,
  root: string,
  commentId: string,
  now: () => string = () => new Date().toISOString(),
): Promise<AppliedSuggestion> {
  const comment = mirror.reviewViews.comment(commentId);
  if (!comment) throw new SuggestionError(`No comment ${commentId} in the mirror.`, 'none');
  const suggestion = suggestionOf(comment.body);
  if (suggestion === null) throw new SuggestionError('That comment suggests no change (it holds no ```suggestion block).', 'none');
  if (!comment.changeRequestId || !comment.pageId || !comment.nodeId)
    throw new SuggestionError('That suggestion is not on a line of a change request.', 'none');
  const place = threadPlaces(mirror, comment.changeRequestId).get(commentId);
  const anchor = mirror.commentAnchors.anchors([commentId]).get(commentId);
  if (!place || !anchor) throw new SuggestionError('Quire has not read where that suggestion was made yet, and that needs the server.', 'needs-server');
  const space = mirror.catalog.space(comment.spaceId);
  const path = mirror.folder.node(comment.spaceId, comment.pageId)?.path ?? null;
  if (!space?.folder || path === null) throw new SuggestionError('Its page has no file in this folder (sync it first).', 'no-file');
  const file = `${space.folder}/${path}`;
  const at = place.line ?? anchor.line;
  const changed = () =>
    new SuggestionError(`The lines it replaces changed since it was made (${file}${at ? `, line ${at}` : ''}); nothing was applied.`, 'changed');
  if (place.outdated || !anchor.lines) throw changed();
  const spaceDir = join(root, space.folder);
  const text = await readText(spaceDir, path);
  if (text === null) throw new SuggestionError(`${file} is not in the folder any more; nothing was applied.`, 'no-file');
  const endsWithNewline = text.endsWith('\n');
  const lines = (endsWithNewline ? text.slice(0, -1) : text).split('\n');
  const starts = occurrences(lines, anchor.lines);
  if (starts.length === 0) throw changed();
  // Where the same lines appear more than once: the one nearest where the block is.
  const start = starts.reduce((best, s) => (Math.abs(s - (at ?? s)) < Math.abs(best - (at ?? best)) ? s : best), starts[0]!);
  const next = [...lines.slice(0, start - 1), ...suggestion, ...lines.slice(start - 1 + anchor.lines.length)].join('\n') + (endsWithNewline ? '\n' : '');
  const title = mirror.content.page(comment.spaceId, comment.pageId)?.title ?? null;
  const keep = (t: string) =>
    mirror.transaction(() =>
      mirror.history.record({
        spaceId: comment.spaceId,
        pageId: comment.pageId!,
        path,
        title,
        text: t,
        reason: 'local',
        detail: 'before a suggestion was applied',
        at: now(),
      }),
    );
  recordSyncedBaselines(mirror);
  keep(text);
  await writeFileReplacing(spaceDir, path, next, async () => {
    // The writer may have saved since it was read: their text wins, and nothing is applied.
    const latest = await readText(spaceDir, path);
    if (latest !== text) throw changed();
  });
  return { spaceId: comment.spaceId, pageId: comment.pageId, file, line: start, replaced: anchor.lines.length, by: suggestion.length };
}
