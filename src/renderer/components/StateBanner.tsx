import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { needsYou, type StateReasonVM, type SyncStatusVM } from '../../shared/contract';
import { navigate } from '../hooks/use-route';
import { useAction } from '../hooks/use-query';
import { plural } from '../lib/format';
import { ErrorNotice } from './ErrorNotice';
import { useOpenPath } from './OpenPath';

/** A page the Pages view shows (a markdown page file); anything else is opened as a file. */
const isPage = (path: string) => /\.md$/i.test(path) && !/(^|\/)SUMMARY\.md$/i.test(path);

type Action = StateReasonVM['action'];

const LABELS: Record<Action, string> = {
  'resolve-conflict': 'Resolve the conflict',
  'show-file': 'Show the file',
  'restore-deleted': 'Restore deleted files',
  'restore-file': 'Restore the file',
  'allow-deletes': 'Let the deletes through',
  'sign-in': 'Sign in again',
  'choose-spaces': 'Choose spaces',
  'sync-now': 'Sync now',
  resume: 'Resume',
  'open-review': 'Open review',
  'show-folder': 'Show the folder',
  none: '',
};

/** What several reasons of one kind are, counted: "3 conflicts". */
const NOUNS: Record<string, [string, string]> = {
  conflict: ['conflict', 'conflicts'],
  'held-page': ['page not pushed', 'pages not pushed'],
  'summary-edit': ['SUMMARY.md change not pushed', 'SUMMARY.md changes not pushed'],
  'asset-in-use': ['deleted file still in use', 'deleted files still in use'],
  unreadable: ['path left alone', 'paths left alone'],
  'mass-delete': ['space stopped before deleting pages', 'spaces stopped before deleting pages'],
  refused: ['change refused by the server', 'changes refused by the server'],
  'missing-folder': ['space folder missing', 'space folders missing'],
  'unsafe-state': ['space Quire cannot trust', 'spaces Quire cannot trust'],
  'sync-failed': ['failed sync', 'failed syncs'],
  'review-refused': ['review action refused by the server', 'review actions refused by the server'],
  'edits-waiting': ['space with local edits not on the server yet', 'spaces with local edits not on the server yet'],
  'never-synced': ['space not synced yet', 'spaces not synced yet'],
};

/** Actions that act on one file: offered per reason, inside the details, when several reasons share a line. */
const PER_FILE: ReadonlySet<Action> = new Set(['show-file', 'restore-file', 'allow-deletes', 'restore-deleted']);

/**
 * Why the sync is in its state, under the header: one line per kind of reason (its words, or
 * "3 conflicts: a.md, b.md, …" for several), with the action that settles it; what each is
 * about — the files and titles, each reason in full — folded below its line. Sync now is the
 * header's: a reason that asks for it has no button of its own here. Nothing when in sync.
 */
export function StateBanner({ status }: { status: SyncStatusVM | undefined }) {
  const reasons = (status?.reasons ?? []).filter((r) => r.action !== 'none');
  if (!status || status.state === 'signed-out' || reasons.length === 0) return null;
  const kinds: StateReasonVM[][] = [];
  for (const r of reasons) {
    const same = kinds.find((k) => k[0]!.kind === r.kind);
    if (same) same.push(r);
    else kinds.push([r]);
  }
  return (
    <section className={`state-banner state-${status.state}`} aria-label="Sync state: what it is about" data-testid="state-banner">
      <ul>
        {kinds.map((k) => (
          <KindLine key={k[0]!.kind} reasons={k} />
        ))}
      </ul>
    </section>
  );
}

/** One kind of reason on one line, its details folded. */
function KindLine({ reasons }: { reasons: StateReasonVM[] }) {
  const first = reasons[0]!;
  const one = reasons.length === 1;
  const noun = NOUNS[first.kind];
  const files = reasons.flatMap((r) => (r.path ? [r.path] : []));
  const message = one
    ? first.message
    : `${noun ? plural(reasons.length, noun[0], noun[1]) : `${reasons.length} ${first.kind}`}${files.length > 0 ? `: ${files.join(', ')}` : ''}`;
  const details = one ? (first.details ?? []) : [];
  const [unfolded, setUnfolded] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const line = useRef<HTMLParagraphElement>(null);
  const cut = useCut(line);
  // Several reasons: each in full, with its own action when it acts on one file; one: in full when its line cuts it.
  const folds = !one || cut || details.length > 0;
  const lineActions = one ? actionsOf(first) : PER_FILE.has(first.action) ? [] : [first.action];
  const id = `reason-${first.kind}`;
  return (
    <li className={`reason ${needsYou(first.kind) ? 'needs' : 'info'}`} data-kind={first.kind}>
      <div className="reason-line">
        <p className="reason-message" title={message} ref={line}>
          {message}
        </p>
        {lineActions.map((a) => (
          <ReasonButton key={a} reason={first} action={a} onDone={setDone} />
        ))}
        {done && (
          <span className="reason-done" role="status">
            {done}
          </span>
        )}
        {folds && (
          <button type="button" className="link reason-fold" aria-expanded={unfolded} aria-controls={id} onClick={() => setUnfolded(!unfolded)}>
            {unfolded ? 'Less' : details.length > 0 ? `The ${plural(details.length, 'page')}` : 'More'}
          </button>
        )}
      </div>
      {folds && unfolded && (
        <div className="reason-details" id={id}>
          {one ? (
            <>
              <p className="reason-full">{first.message}</p>
              {details.length > 0 && (
                <ul className="reason-items">
                  {details.map((d) => (
                    <li key={d}>{d}</li>
                  ))}
                </ul>
              )}
            </>
          ) : (
            <ul className="reason-items">
              {reasons.map((r, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: reasons have no identity but their place; the list is replaced whole.
                <li key={`${r.spaceId}/${r.path ?? ''}/${i}`}>
                  <span>{r.message}</span>
                  {PER_FILE.has(r.action) && actionsOf(r).map((a) => <ReasonButton key={a} reason={r} action={a} onDone={setDone} />)}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </li>
  );
}

/** Whether the line cuts its text (it ends in “…”): measured after each render, and again as the window changes size. */
function useCut(ref: RefObject<HTMLElement | null>): boolean {
  const [cut, setCut] = useState(false);
  const measure = () => {
    const el = ref.current;
    if (el) setCut(el.scrollWidth > el.clientWidth + 1);
  };
  useLayoutEffect(measure);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setCut(el.scrollWidth > el.clientWidth + 1));
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return cut;
}

/** The actions a reason offers here: its own and the one beside it, never Sync now (the header's). */
function actionsOf(r: StateReasonVM): Action[] {
  return [r.action, ...(r.also ? [r.also] : [])].filter((a) => a !== 'sync-now' && a !== 'none');
}

/** A reason's action as a button; `onDone` says what it did (kept by the line: the reason may change with it). */
function ReasonButton({ reason, action: which, onDone }: { reason: StateReasonVM; action: Action; onDone: (words: string) => void }) {
  const action = useAction();
  const open = useOpenPath();
  const { spaceId, path } = reason;
  const count = reason.pageIds?.length ?? 0;
  const label = which === 'allow-deletes' && count > 0 ? `Let ${count === 1 ? 'this delete' : `these ${count} deletes`} through` : LABELS[which];

  const restored = (result: { restored: string[]; missing: string[] } | undefined) => {
    if (result) onDone(`${plural(result.restored.length, 'file')} restored${result.missing.length ? `; no history for ${result.missing.join(', ')}` : ''}.`);
  };

  const act = async () => {
    switch (which) {
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
      case 'restore-deleted':
        if (spaceId) restored(await action.run('history.restoreDeleted', { spaceId }));
        return;
      case 'restore-file':
        if (spaceId && path) restored(await action.run('history.restoreDeleted', { spaceId, paths: [path] }));
        return;
      case 'allow-deletes':
        if (spaceId) await action.run('sync.allowDeletes', { spaceId, pageIds: reason.pageIds ?? [] });
        return;
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
    <>
      <button type="button" className="reason-action" onClick={() => void act()} disabled={action.busy}>
        {label}
      </button>
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </>
  );
}
