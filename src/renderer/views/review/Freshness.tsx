import { useCallback, useEffect, useRef, useState } from 'react';
import { retryTime } from '../../../shared/when';
import type { RefusedActionVM, ReviewStateVM } from '../../../shared/contract';
import { useBridge } from '../../hooks/bridge-context';
import { useAction, useQuery } from '../../hooks/use-query';
import { ErrorNotice } from '../../components/ErrorNotice';
import { plural, timeAgo } from '../../lib/format';

export interface ReviewFreshness {
  state: ReviewStateVM | undefined;
  /** A refresh asked for by this view is running. */
  refreshing: boolean;
  error: Error | null;
  refresh(): void;
}

/**
 * Review state, refreshed once when the view opens (`review.refresh`: online it sends what is
 * queued, then brings what changed; offline it answers at once with the state as it is), then
 * read again whenever review data or the sync state changes.
 */
export function useReviewFreshness(): ReviewFreshness {
  const bridge = useBridge();
  const query = useQuery('review.state', {}, ['review']);
  const [latest, setLatest] = useState<ReviewStateVM | undefined>(undefined);
  const [refreshing, setRefreshing] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const running = useRef(false);
  const { reload } = query;

  // Whichever answer came last says how things are: the refresh's own, or the state read since.
  useEffect(() => {
    if (query.data) setLatest(query.data);
  }, [query.data]);

  const refresh = useCallback(() => {
    if (running.current) return;
    running.current = true;
    setRefreshing(true);
    setError(null);
    bridge
      .request('review.refresh', {})
      .then(setLatest, (e: unknown) => setError(e instanceof Error ? e : new Error(String(e))))
      .finally(() => {
        running.current = false;
        setRefreshing(false);
      });
  }, [bridge]);

  useEffect(() => refresh(), [refresh]);

  // Going offline or coming back changes what the state says, without a change to review data.
  useEffect(() => {
    let last: string | null = null;
    return bridge.on('sync.status', (s) => {
      if (last !== null && s.state !== last) reload();
      last = s.state;
    });
  }, [bridge, reload]);

  return { state: latest, refreshing, error: error ?? query.error, refresh };
}

const KIND_WORDS: Record<string, string> = {
  reply: 'A reply',
  postComment: 'A new comment',
  editComment: 'An edit of a comment',
  editReply: 'An edit of a reply',
  deleteComment: 'Deleting a comment',
  deleteReply: 'Deleting a reply',
  addReaction: 'A reaction',
  removeReaction: 'Removing a reaction',
  resolve: 'Resolving a comment',
  reopen: 'Reopening a comment',
  editChangeRequest: 'An edit of a change request',
  requestReviewer: 'Asking for a review',
  removeReviewer: 'Withdrawing a review request',
};

/** What the list holds: refused actions, actions the server keeps failing on (waiting), or both. */
function refusedTitle(refused: RefusedActionVM[]): string {
  const failing = refused.filter((r) => r.retryAt !== undefined).length;
  const n = plural(refused.length, 'action');
  if (failing === 0) return `${n} refused by the server`;
  return failing === refused.length ? `${n} the server failed on, waiting to be sent again` : `${n} the server refused or failed on`;
}

/**
 * Actions the server refused, each with its reason, until put away (the sync state counts them
 * until then); and actions it keeps failing on, each with when it is tried again: Dismiss gives up on one.
 */
export function RefusedActions({ refused }: { refused: RefusedActionVM[] }) {
  const action = useAction();
  if (refused.length === 0) return null;
  return (
    <section className="refused notice error" aria-label="Refused by the server" data-testid="review-refused">
      <div>
        <p className="refused-title">{refusedTitle(refused)}</p>
        <ul>
          {refused.map((r) => (
            <li key={r.actionId}>
              <span>
                {KIND_WORDS[r.kind] ?? r.kind}, {timeAgo(r.at)}: {r.message}
                {r.retryAt !== undefined && ` — tried again ${retryTime(r.retryAt)}`}
              </span>{' '}
              <button type="button" className="link" disabled={action.busy} onClick={() => void action.run('review.dismiss', { actionId: r.actionId })}>
                Dismiss
              </button>
            </li>
          ))}
        </ul>
        <ErrorNotice error={action.error} onDismiss={action.clearError} />
      </div>
    </section>
  );
}

/** One line beside the view's title: how fresh the review data is, and what waits to be sent. */
export function Freshness({ freshness }: { freshness: ReviewFreshness }) {
  const { state, refreshing, error } = freshness;
  const at = state?.refreshedAt ?? null;
  const when = at ? timeAgo(at) : null;
  let words: string;
  if (refreshing) words = 'Refreshing review data…';
  else if (!state) words = '';
  else if (state.online) words = at ? `Refreshed ${timeAgo(at)}.` : 'Not refreshed yet.';
  else words = when ? `Offline: showing review data as last refreshed ${when}.` : 'Offline, and review data was never refreshed: it comes with the first sync.';
  return (
    <div className="freshness">
      <p
        className={`freshness-line small${state && !state.online && !refreshing ? ' offline' : ''}`}
        role="status"
        aria-busy={refreshing}
        data-testid="review-freshness"
        data-refreshed-at={at ?? ''}
        data-online={state ? String(state.online) : ''}
      >
        <span>{words}</span>
        {state && state.pendingActions > 0 && (
          <span className="pending-text" data-testid="review-pending">
            {' '}
            {plural(state.pendingActions, 'action')} waiting to be sent.
          </span>
        )}
        <button type="button" className="link" disabled={refreshing} onClick={freshness.refresh}>
          Refresh
        </button>
      </p>
      <ErrorNotice error={error} />
    </div>
  );
}
