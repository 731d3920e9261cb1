import { useState, type FormEvent } from 'react';
import type { ChangeRequestDetailVM, PageDiffVM } from '../../shared/contract';
import { useAction, useQuery } from '../hooks/use-query';
import { ErrorNotice } from '../components/ErrorNotice';
import { PendingMark } from '../components/Pending';
import { Person } from '../components/Person';
import { Thread } from '../components/Thread';
import { DiffView } from '../components/DiffView';
import { RenderedHtml } from '../components/RenderedHtml';
import { timeAgo } from '../lib/format';

const STATUSES = ['draft', 'open', 'archived'] as const;

/** A change request: its page-level diff, its threads, and the actions on it. */
export function ChangeRequestDetail({ spaceId, changeRequestId, onClose }: { spaceId: string; changeRequestId: string; onClose(): void }) {
  const detail = useQuery('review.changeRequest', { spaceId, changeRequestId }, ['review']);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape from any control inside the pane closes it (the key bubbles here).
    <div className="cr-detail" onKeyDown={(e) => e.key === 'Escape' && onClose()}>
      <div className="detail-head">
        <button type="button" className="link" onClick={onClose}>
          Close
        </button>
      </div>
      <ErrorNotice error={detail.error} />
      {detail.data && <Loaded detail={detail.data} />}
    </div>
  );
}

function Loaded({ detail }: { detail: ChangeRequestDetailVM }) {
  const cr = detail.changeRequest;
  const action = useAction();
  const [subject, setSubject] = useState<string | null>(null);
  const ref = { spaceId: cr.spaceId, changeRequestId: cr.id };

  const saveSubject = async (e: FormEvent) => {
    e.preventDefault();
    if (subject === null || !subject.trim()) return;
    const ok = await action.run('review.setSubject', { ...ref, subject: subject.trim() });
    if (ok !== undefined) setSubject(null);
  };

  return (
    <article aria-label={`Change request #${cr.number}`} data-testid="cr-detail">
      <header className="cr-head">
        {subject === null ? (
          <h2>
            <span className="cr-number">#{cr.number}</span> {cr.subject}{' '}
            <button type="button" className="link small" onClick={() => setSubject(cr.subject)}>
              Edit subject
            </button>
          </h2>
        ) : (
          <form className="inline-form" onSubmit={(e) => void saveSubject(e)}>
            <label className="sr-only" htmlFor="cr-subject">
              Subject
            </label>
            {/* biome-ignore lint/a11y/noAutofocus: the user just opened this form to type here. */}
            <input id="cr-subject" value={subject} maxLength={100} onChange={(e) => setSubject(e.target.value)} autoFocus />
            <button type="submit" className="primary">
              Save
            </button>
            <button type="button" className="secondary" onClick={() => setSubject(null)}>
              Cancel
            </button>
          </form>
        )}
        <div className="muted small">
          {cr.spaceTitle} · by <Person user={cr.createdBy} /> · updated {timeAgo(cr.updatedAt)} <PendingMark pending={cr.pending} failure={cr.failure} />
        </div>
        <div className="actions">
          <label>
            Status{' '}
            <select value={cr.status} onChange={(e) => void action.run('review.setStatus', { ...ref, status: e.target.value as (typeof STATUSES)[number] })}>
              {!STATUSES.includes(cr.status as (typeof STATUSES)[number]) && <option value={cr.status}>{cr.status}</option>}
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            disabled={!cr.outdated || action.busy}
            title={cr.outdated ? 'Bring the latest main content into this change request' : 'Already up to date with main'}
            onClick={() => void action.run('review.updateFromMain', ref)}
          >
            Update from main
          </button>
          <button
            type="button"
            className="primary"
            disabled={!detail.canMerge || action.busy}
            title={detail.canMerge ? 'Merge into main' : 'You may not merge this change request, or it is not open'}
            onClick={() => void action.run('review.merge', ref)}
          >
            Merge
          </button>
          {cr.outdated && <span className="badge warn">Behind main</span>}
        </div>
        <ErrorNotice error={action.error} onDismiss={action.clearError} />
        {detail.description && <p className="cr-description">{detail.description}</p>}
      </header>
      <section aria-label="Changed pages">
        <h3>Changed pages ({detail.diff.length})</h3>
        {detail.diff.length === 0 && <p className="muted">No page differs from the base.</p>}
        {detail.diff.map((d) => (
          <PageDiff key={d.pageId} diff={d} spaceId={cr.spaceId} changeRequestId={cr.id} />
        ))}
      </section>
      <section aria-label="Comments">
        <h3>Comments ({detail.threads.length})</h3>
        {detail.threads.map((t) => (
          <Thread key={t.id} thread={t} compact />
        ))}
      </section>
    </article>
  );
}

function PageDiff({ diff, spaceId, changeRequestId }: { diff: PageDiffVM; spaceId: string; changeRequestId: string }) {
  const [open, setOpen] = useState(diff.change === 'modified');
  const [rendered, setRendered] = useState(false);
  return (
    <div className={`page-diff ${diff.change}`}>
      <button type="button" className="page-diff-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className={`badge change ${diff.change}`}>{diff.change}</span>
        <span>{diff.title}</span>
        <span className="muted small">
          {diff.previousPath && diff.previousPath !== diff.path ? `${diff.previousPath} → ` : ''}
          {diff.path ?? ''}
        </span>
        <span className="diff-stat">
          <span className="added">+{diff.linesAdded}</span> <span className="removed">−{diff.linesRemoved}</span>
        </span>
      </button>
      {open && (
        <div className="diff-mode" role="radiogroup" aria-label={`How to show the changes to ${diff.title}`}>
          <label>
            <input type="radio" checked={!rendered} onChange={() => setRendered(false)} /> Text
          </label>
          <label>
            <input type="radio" checked={rendered} onChange={() => setRendered(true)} /> Rendered, side by side
          </label>
        </div>
      )}
      {open && !rendered && <DiffView before={diff.before} after={diff.after} label={`Changes to ${diff.title}`} />}
      {open && rendered && <RenderedDiff spaceId={spaceId} changeRequestId={changeRequestId} pageId={diff.pageId} title={diff.title} />}
    </div>
  );
}

/** The page before and after, rendered as GitBook shows it (the host's renderer, sanitised). */
function RenderedDiff({ spaceId, changeRequestId, pageId, title }: { spaceId: string; changeRequestId: string; pageId: string; title: string }) {
  const sides = useQuery('review.renderedDiff', { spaceId, changeRequestId, pageId }, ['review']);
  return (
    <div className="rendered-diff" role="figure" aria-label={`${title}, before and after`} data-testid="rendered-diff">
      <ErrorNotice error={sides.error} />
      {sides.data && (
        <>
          <div>
            <h4>Before</h4>
            {sides.data.before === null ? <p className="muted">(new page)</p> : <RenderedHtml html={sides.data.before} />}
          </div>
          <div>
            <h4>After</h4>
            {sides.data.after === null ? <p className="muted">(deleted)</p> : <RenderedHtml html={sides.data.after} />}
          </div>
        </>
      )}
    </div>
  );
}
