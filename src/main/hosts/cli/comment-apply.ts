/**
 * `quire comment apply <commentId>`: the change a comment on a line suggests (its ```suggestion
 * block) goes into the writer's file of the page, holding the folder's turn as a sync does; the
 * next sync pushes it. The thread is then resolved with a reply saying so (sent at once, or
 * queued offline). A suggestion whose lines changed since it was made is refused in one line,
 * and nothing is written.
 */
import type { ApiClient } from '../../core/api';
import type { Mirror } from '../../core/mirror';
import { applySuggestion, ReviewService, SuggestionError } from '../../core/review';
import { withFolderTurn } from './folder-turn';
import { EXIT, type CliIo } from './io';
import { errorMessage } from './messages';
import { describeOutcome } from './review-lookup';
import { safeField } from './terminal-text';

export async function applyCommand(
  mirror: Mirror,
  dir: string,
  id: string,
  api: ApiClient | null,
  why: string | null,
  io: CliIo,
  json = false,
): Promise<number> {
  const review = new ReviewService(mirror);
  if (!review.findPost(id) && api) await review.refresh(api, { signal: io.signal, sites: false });
  const commentId = review.findPost(id)?.commentId ?? id;
  const comment = review.comment(commentId);
  if (!comment) {
    io.stderr(
      `quire comment apply: no comment ${safeField(id)} in the mirror${api ? '' : ` (${safeField(why ?? 'the API is not reachable')})`}; \`quire review\` lists them.`,
    );
    return EXIT.error;
  }
  const what = `The suggestion of comment ${safeField(comment.id)}`;
  if (api && comment.changeRequestId) {
    try {
      // The change request as it is now, and where the suggestion was made: its lines must still be those.
      await review.readChangeRequest(api, comment.changeRequestId, io.signal);
      await review.loadChangeRequestDiff(api, comment.changeRequestId);
      await review.ensureAnchors(api, comment.changeRequestId, io.signal);
    } catch (err) {
      if (io.signal.aborted) throw err;
      io.stderr(`Judging it from the local mirror (${safeField(errorMessage(err, dir))})`);
    }
  }
  let applied: Awaited<ReturnType<typeof applySuggestion>>;
  try {
    applied = await withFolderTurn(dir, 'quire comment apply', io, () => applySuggestion(mirror, dir, comment.id));
  } catch (err) {
    if (!(err instanceof SuggestionError)) throw err;
    const tail = err.reason === 'needs-server' ? ` Run it again when the API is reachable${why ? ` (${safeField(why)})` : ''}.` : '';
    io.stdout(`${what}: ${err.reason === 'changed' ? 'refused — ' : 'not applied — '}${safeField(err.message)}${tail}`);
    return EXIT.error;
  }
  const file = safeField(applied.file);
  if (!json) io.stdout(`${what} went into ${file} (line ${applied.line}): the next sync pushes it.`);
  const reply = await review.act(
    { kind: 'reply', commentId: comment.id, body: `Applied this suggestion to \`${applied.file}\`; it is pushed with the next sync.` },
    api,
    io.signal,
  );
  if (!api && reply.outcome === 'queued') reply.message = why;
  const resolved = await review.act({ kind: 'resolve', commentId: comment.id }, api, io.signal);
  if (!api && resolved.outcome === 'queued') resolved.message = why;
  if (json) {
    const outcome = (r: typeof reply) => ({ outcome: r.outcome, actionId: r.action.id, message: r.message });
    io.stdout(JSON.stringify({ file: applied.file, line: applied.line, reply: outcome(reply), resolve: outcome(resolved) }, null, 2));
  } else {
    io.stdout(describeOutcome(`Reply saying it was applied`, reply));
    io.stdout(describeOutcome(`Resolving comment ${safeField(comment.id)}`, resolved));
  }
  return reply.outcome === 'refused' || resolved.outcome === 'refused' ? EXIT.error : EXIT.ok;
}
