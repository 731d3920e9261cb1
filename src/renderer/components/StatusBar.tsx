import { needsYou, SYNC_STATE_WORDS, type SessionVM, type SyncStatusVM } from '../../shared/contract';
import { useAction } from '../hooks/use-query';
import { plural, timeAgo } from '../lib/format';
import { ErrorNotice } from './ErrorNotice';

/** What the running cycle is doing, beside "Syncing…". */
function progressDetail(status: SyncStatusVM): string | null {
  const p = status.progress;
  if (!p) return null;
  if (p.phase === 'catalog') return 'listing spaces';
  if (p.phase === 'review') return 'review and sites';
  if (p.total > 0 && (p.phase === 'pull' || p.phase === 'push')) {
    const where = p.spaceTitle ? `${p.spaceTitle} · ` : '';
    return `${p.phase === 'push' ? 'pushing ' : ''}${where}${p.done}/${p.total}`;
  }
  return null;
}

/** The words after the state: what it is about, in a few words (the banner below says it in full). */
function stateDetail(status: SyncStatusVM): string | null {
  switch (status.state) {
    case 'syncing':
      return progressDetail(status) ?? (status.editsWaiting > 0 ? `${plural(status.editsWaiting, 'edit')} to push` : null);
    case 'in-sync':
      return status.lastReachedServerAt ? `last sync ${timeAgo(status.lastReachedServerAt)}` : null;
    case 'offline':
      return `since ${timeAgo(status.offlineSince)} · last sync ${timeAgo(status.lastReachedServerAt)}`;
    case 'paused':
      return `${plural(status.editsWaiting, 'edit')} waiting`;
    case 'needs-you': {
      const n = status.reasons.filter((r) => needsYou(r.kind)).length;
      return n > 1 ? `${n} things` : null;
    }
    default:
      return null;
  }
}

/** The sync state in words, what it is about, and the buttons that act on sync, always in view. */
export function StatusBar({ status, session }: { status: SyncStatusVM | undefined; session: SessionVM }) {
  const action = useAction();
  const progress = status?.progress;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null;
  const words = status && status.state !== 'signed-out' ? SYNC_STATE_WORDS[status.state] : status ? 'Signed out' : 'Loading…';
  const detail = status ? stateDetail(status) : null;
  return (
    <header className="statusbar">
      <div className="brand" aria-hidden="true">
        Quire
      </div>
      <div
        className={`sync-state state-${status?.state ?? 'loading'}`}
        role="status"
        aria-live="polite"
        data-testid="sync-state"
        data-state={status?.state}
        data-seq={status?.seq}
      >
        <span className="dot" aria-hidden="true" />
        <span className="sync-label" data-testid="sync-words">
          {words}
        </span>
        {detail && <span className="sync-detail">{detail}</span>}
        {status?.state === 'syncing' && progress && (
          <progress className="sync-progress" max={100} value={percent ?? undefined} aria-label="Sync progress" data-testid="sync-progress" />
        )}
        {status?.message && <span className="sync-message">{status.message}</span>}
        {status && status.pendingActions > 0 && (
          <span className="badge pending" title="Review actions saved offline, sent when the API is reachable">
            {plural(status.pendingActions, 'pending action')}
          </span>
        )}
      </div>
      <div className="actions">
        <button type="button" onClick={() => void action.run('sync.now', {})} disabled={action.busy || (status?.state === 'syncing' && !!progress)}>
          Sync now
        </button>
        <button type="button" onClick={() => void action.run('sync.setPaused', { paused: !status?.paused })}>
          {status?.paused ? 'Resume' : 'Pause'}
        </button>
        <span className="user" title={session.apiUrl}>
          {session.user?.displayName ?? 'Signed in'}
        </span>
        <button type="button" className="secondary" onClick={() => void action.run('session.signOut', {})}>
          Sign out
        </button>
      </div>
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </header>
  );
}
