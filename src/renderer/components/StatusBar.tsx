import type { SessionVM, SyncStatusVM, SyncState } from '../../shared/contract';
import { useAction } from '../hooks/use-query';
import { ErrorNotice } from './ErrorNotice';
import { timeAgo, plural } from '../lib/format';

const LABELS: Record<SyncState, string> = {
  'signed-out': 'Signed out',
  idle: 'In sync',
  syncing: 'Syncing',
  offline: 'Offline',
  conflicts: 'Conflicts need you',
  'token-rejected': 'Token rejected',
  paused: 'Paused',
  error: 'Sync failed',
};

function syncLabel(status: SyncStatusVM): string {
  const p = status.state === 'syncing' ? status.progress : null;
  if (p?.phase === 'catalog') return 'Listing spaces';
  if (p?.phase === 'review') return 'Syncing review and sites';
  if (p && p.total > 0 && (p.phase === 'pull' || p.phase === 'push')) {
    const where = p.spaceTitle ? ` ${p.spaceTitle}` : '';
    return `${p.phase === 'push' ? 'Pushing' : 'Syncing'}${where} · ${p.done}/${p.total}`;
  }
  if (status.state === 'conflicts') return `${plural(status.conflicts, 'conflict')} need you`;
  return LABELS[status.state];
}

/** The sync state, its progress, and the buttons that act on sync, always in view. */
export function StatusBar({ status, session }: { status: SyncStatusVM | undefined; session: SessionVM }) {
  const action = useAction();
  const progress = status?.progress;
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : null;
  return (
    <header className="statusbar">
      <div className="brand" aria-hidden="true">
        Quire
      </div>
      <div className={`sync-state state-${status?.state ?? 'idle'}`} role="status" aria-live="polite" data-testid="sync-state" data-seq={status?.seq}>
        <span className="dot" aria-hidden="true" />
        <span className="sync-label">{status ? syncLabel(status) : 'Loading…'}</span>
        {status?.state === 'syncing' && (
          <progress className="sync-progress" max={100} value={percent ?? undefined} aria-label="Sync progress" data-testid="sync-progress" />
        )}
        {status?.message && status.state !== 'syncing' && <span className="sync-message">{status.message}</span>}
        {status && status.state !== 'syncing' && status.lastCycleAt && <span className="muted small">last sync {timeAgo(status.lastCycleAt)}</span>}
        {status && status.pendingActions > 0 && (
          <span className="badge pending" title="Review actions saved offline, sent when the API is reachable">
            {plural(status.pendingActions, 'pending action')}
          </span>
        )}
      </div>
      <div className="actions">
        <button type="button" onClick={() => void action.run('sync.now', {})} disabled={action.busy || status?.state === 'syncing'}>
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
