/**
 * Comments on a line of a change request's page, for the app: the line a reviewer clicked in
 * the diff becomes the block holding it (the comment's `node`); a suggested change is written
 * into the writer's file under the folder's lock, as a restore is, and its thread resolved with
 * a reply saying so.
 */
import { QuireError, type AppliedSuggestionVM, type Params } from '../../../shared/contract';
import { applySuggestion, LineCommentError, SuggestionError } from '../../core/review';
import { toQuireError } from './errors';
import type { ReviewAdapter } from './review-adapter';
import type { ServiceState } from './state';
import type { SyncRunner } from './sync-runner';
import type { HandlersFor } from './types';

/** The block (and the revision it was read at) a new comment on `line` names; nothing for a comment not on a line. */
export async function lineOf(
  adapter: ReviewAdapter,
  online: boolean,
  p: Params<'review.newComment'>,
): Promise<{ nodeId: string; revisionId: string } | Record<string, never>> {
  if (p.line === undefined) return {};
  if (!p.changeRequestId || !p.pageId) throw new QuireError('invalid-request', 'A comment on a line needs the change request and the page it is on.');
  try {
    const target = await adapter.core.review.lineTarget(online ? adapter.core.api : null, p.changeRequestId, p.pageId, p.line);
    return { nodeId: target.nodeId, revisionId: target.revisionId };
  } catch (e) {
    if (!(e instanceof LineCommentError)) throw toQuireError(e, 'comment on that line');
    throw new QuireError(e.reason === 'needs-server' ? 'offline' : 'invalid-request', `Cannot comment on line ${p.line}: ${e.message}.`);
  }
}

export function reviewLineHandlers(state: ServiceState, runner: Pick<SyncRunner, 'holdingFolder'>): HandlersFor<'review.applySuggestion'> {
  const adapter = (): ReviewAdapter => {
    if (!state.review) throw new QuireError('signed-out', 'You are signed out. Sign in with an API token first.');
    return state.review;
  };
  const online = () => state.status.get().state !== 'offline';

  return {
    'review.applySuggestion': async ({ commentId }) => {
      const a = adapter();
      const comment = a.core.review.comment(commentId);
      if (!comment) throw new QuireError('not-found', 'That comment is not in the mirror any more; it may have been deleted.');
      const crId = comment.changeRequestId;
      if (crId && online()) {
        // The change request now, and where the suggestion was made: its lines must still be those.
        const { review, api } = a.core;
        await review
          .readChangeRequest(api, crId, state.abort.signal)
          .then(() => review.loadChangeRequestDiff(api, crId))
          .then(() => review.ensureAnchors(api, crId, state.abort.signal))
          .catch((e: unknown) => state.log(`suggestion: ${toQuireError(e, 'read it').message}`));
      }
      let applied: Awaited<ReturnType<typeof applySuggestion>>;
      try {
        applied = await runner.holdingFolder('applying a suggestion', () => applySuggestion(state.mirror, state.folder, comment.id));
      } catch (e) {
        if (e instanceof SuggestionError) throw new QuireError(e.reason === 'needs-server' ? 'offline' : 'invalid-request', e.message);
        throw toQuireError(e, 'apply that suggestion', state.folder);
      } finally {
        state.events.changed('review', 'history');
      }
      const reply = await a.actNow({
        kind: 'reply',
        commentId: comment.id,
        body: `Applied this suggestion to \`${applied.file}\`; it is pushed with the next sync.`,
      });
      const resolve = await a.actNow({ kind: 'resolve', commentId: comment.id });
      void state.status.refresh();
      state.events.changed('review');
      const sent = reply.outcome === 'sent' && resolve.outcome === 'sent';
      return {
        file: applied.file,
        line: applied.line,
        message: `Applied to ${applied.file} (line ${applied.line}); the next sync pushes it. ${sent ? 'The thread is resolved.' : 'The reply and the resolve are sent when the API is reachable.'}`,
      } satisfies AppliedSuggestionVM;
    },
  };
}
