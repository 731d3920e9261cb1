import { useId, useState } from 'react';
import type { BlockerVM, ChangeRequestDetailVM } from '../../../shared/contract';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useAction } from '../../hooks/use-query';
import { MergeConfirm } from './MergeConfirm';

/** "Not possible: it is a draft: mark it ready for review (reopen it) first; …", or "Not needed: …" when it is already done. */
export function blockedWords(blockers: BlockerVM[]): string {
  const needless = blockers.every((b) => b.code === 'up-to-date' || b.code === 'open');
  return `${needless ? 'Not needed' : 'Not possible'}: ${blockers.map((b) => b.message).join('; ')}.`;
}

/** A button that is disabled with the reason beside it when the action is not possible, or a note when it is. */
export function ActionButton({
  label,
  blockers,
  busy,
  onClick,
  primary = false,
  note,
  testId,
}: {
  label: string;
  blockers: BlockerVM[];
  busy: boolean;
  onClick(): void;
  primary?: boolean;
  note?: string | null;
  testId: string;
}) {
  const id = useId();
  const blocked = blockers.length > 0;
  const words = blocked ? blockedWords(blockers) : note;
  return (
    <div className="action-row" data-testid={testId} data-blocked={blocked}>
      <button type="button" className={primary ? 'primary' : ''} disabled={blocked || busy} aria-describedby={words ? id : undefined} onClick={onClick}>
        {label}
      </button>
      {words && (
        <span id={id} className={`action-note small${blocked ? ' blocked' : ''}`} data-codes={blockers.map((b) => b.code).join(' ')}>
          {words}
        </span>
      )}
    </div>
  );
}

export const NEEDS_SERVER = 'Needs the server, which cannot be reached now: it is not queued. Try again when online.';

/** Merge, update from main, archive and reopen: each disabled with its reason when not possible; a refusal in the server's words. */
export function Lifecycle({ detail, online }: { detail: ChangeRequestDetailVM; online: boolean }) {
  const action = useAction();
  const [done, setDone] = useState<string | null>(null);
  const cr = detail.changeRequest;
  const ref = { spaceId: cr.spaceId, changeRequestId: cr.id };
  const { actions } = detail;
  const offlineNote = online ? null : NEEDS_SERVER;

  const [confirming, setConfirming] = useState(false);
  const holds = detail.mergeHolds ?? [];
  const merge = async (force: boolean) => {
    if ((await action.run('review.merge', { ...ref, ...(force ? { force } : {}) })) === undefined) return;
    setConfirming(false);
    setDone('Merged into main. The next sync brings the result into the folder.');
  };

  const run = async (doing: 'merge' | 'update' | 'archive' | 'reopen') => {
    setDone(null);
    if (doing === 'merge') {
      // Never one click: it asks first, naming what goes into main.
      setConfirming(true);
    } else if (doing === 'update') {
      if ((await action.run('review.updateFromMain', ref)) !== undefined) setDone('Updated: it now has everything main has.');
    } else {
      await action.run('review.setStatus', { ...ref, status: doing === 'archive' ? 'archived' : 'open' });
    }
  };

  return (
    <section className="cr-lifecycle" aria-label="Actions on the change request" data-testid="cr-actions">
      <ActionButton
        testId="action-merge"
        label="Merge"
        primary
        blockers={actions.merge}
        busy={action.busy}
        onClick={() => void run('merge')}
        note={
          offlineNote ??
          (holds.length > 0
            ? `Held back here: ${holds.map((h) => h.message).join('; ')}.`
            : 'Merges into main once you confirm; only this button does, never a sync.')
        }
      />
      {confirming && <MergeConfirm detail={detail} busy={action.busy} onMerge={(force) => void merge(force)} onCancel={() => setConfirming(false)} />}
      <ActionButton
        testId="action-update"
        label="Update from main"
        blockers={actions.update}
        busy={action.busy}
        onClick={() => void run('update')}
        note={offlineNote ?? 'Brings in what changed on main since it was opened.'}
      />
      {cr.status === 'archived' || cr.status === 'draft' ? (
        <ActionButton
          testId="action-reopen"
          label={cr.status === 'draft' ? 'Ready for review' : 'Reopen'}
          blockers={actions.reopen}
          busy={action.busy}
          onClick={() => void run('reopen')}
        />
      ) : null}
      {cr.status !== 'archived' && (
        <ActionButton testId="action-archive" label="Archive" blockers={actions.archive} busy={action.busy} onClick={() => void run('archive')} />
      )}
      {done && (
        <p className="notice ok" role="status">
          {done}
        </p>
      )}
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </section>
  );
}
