import { useState } from 'react';
import { needsYou, type StateReasonVM, type SyncStatusVM } from '../../shared/contract';
import { navigate } from '../hooks/use-route';
import { useAction } from '../hooks/use-query';
import { plural } from '../lib/format';
import { ErrorNotice } from './ErrorNotice';
import { useOpenPath } from './OpenPath';

/** A page the Pages view shows (a markdown page file); anything else is opened as a file. */
const isPage = (path: string) => /\.md$/i.test(path) && !/(^|\/)SUMMARY\.md$/i.test(path);

const LABELS: Record<StateReasonVM['action'], string> = {
  'resolve-conflict': 'Resolve the conflict',
  'show-file': 'Show the file',
  'restore-deleted': 'Restore deleted files',
  'sign-in': 'Sign in again',
  'choose-spaces': 'Choose spaces',
  'sync-now': 'Sync now',
  resume: 'Resume',
  'open-review': 'Open review',
  'show-folder': 'Show the folder',
  none: '',
};

/**
 * Why the sync is in its state, every reason in full with the action that settles it: the
 * banner under the header. Nothing when in sync.
 */
export function StateBanner({ status }: { status: SyncStatusVM | undefined }) {
  const reasons = (status?.reasons ?? []).filter((r) => r.action !== 'none');
  if (!status || status.state === 'signed-out' || reasons.length === 0) return null;
  return (
    <section className={`state-banner state-${status.state}`} aria-label="Sync state: what it is about" data-testid="state-banner">
      <ul>
        {reasons.map((r, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: reasons have no identity but their place; the list is replaced whole.
          <Reason key={`${r.kind}/${r.spaceId}/${r.path ?? ''}/${i}`} reason={r} />
        ))}
      </ul>
    </section>
  );
}

function Reason({ reason }: { reason: StateReasonVM }) {
  const action = useAction();
  const open = useOpenPath();
  const [done, setDone] = useState<string | null>(null);
  const { spaceId, path } = reason;

  const act = async () => {
    switch (reason.action) {
      case 'resolve-conflict':
        return navigate({ view: 'conflicts' });
      case 'choose-spaces':
        return navigate({ view: 'spaces' });
      case 'open-review':
        return navigate({ view: 'review' });
      case 'show-file':
        if (spaceId && path && isPage(path)) return navigate({ name: 'pages.open', spaceId, path });
        if (spaceId && path) return open('pages.openInEditor', { spaceId, path });
        return open('app.openFolder', spaceId ? { spaceId } : {});
      case 'show-folder':
        return open('app.openFolder', spaceId ? { spaceId } : {});
      case 'restore-deleted': {
        if (!spaceId) return;
        const result = await action.run('history.restoreDeleted', { spaceId });
        if (result)
          setDone(`${plural(result.restored.length, 'file')} restored${result.missing.length ? `; no history for ${result.missing.join(', ')}` : ''}.`);
        return;
      }
      case 'sign-in':
        await action.run('session.signOut', {});
        return;
      case 'sync-now':
        await action.run('sync.now', {});
        return;
      case 'resume':
        await action.run('sync.setPaused', { paused: false });
        return;
      case 'none':
        return;
    }
  };

  return (
    <li className={`reason ${needsYou(reason.kind) ? 'needs' : 'info'}`} data-kind={reason.kind}>
      <p className="reason-message">{reason.message}</p>
      <button type="button" className="reason-action" onClick={() => void act()} disabled={action.busy}>
        {LABELS[reason.action]}
      </button>
      {done && (
        <p className="reason-done" role="status">
          {done}
        </p>
      )}
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </li>
  );
}
