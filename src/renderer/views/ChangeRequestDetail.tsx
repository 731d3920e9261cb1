import { useId, useState, type FormEvent } from 'react';
import type { ActOutcomeVM, ChangeRequestDetailVM, PageDiffVM } from '../../shared/contract';
import { useAction, useQuery } from '../hooks/use-query';
import { ActFeedback, outcomeWords, useAct } from '../components/ActOutcome';
import { ErrorNotice } from '../components/ErrorNotice';
import { PendingMark } from '../components/Pending';
import { Person } from '../components/Person';
import { Thread } from '../components/Thread';
import { timeAgo } from '../lib/format';
import { blockedWords, Lifecycle } from './review/Lifecycle';
import { NewComment, type CommentPlaceInput } from './review/NewComment';
import { PageChanges } from './review/PageChanges';
import { Reviews } from './review/Reviews';

const STATUS_CLASS: Record<string, string> = { open: 'open', draft: 'draft', merged: 'ok', archived: 'archived' };

/**
 * A change request: subject, description and status; merge, update, archive and reopen, each
 * saying why when it is not possible; reviews and reviewers; its changed pages (PageChanges:
 * unified or side by side, comments on lines) and threads.
 */
export function ChangeRequestDetail({
  spaceId,
  changeRequestId,
  online,
  onClose,
}: {
  spaceId: string;
  changeRequestId: string;
  online: boolean;
  onClose(): void;
}) {
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
      {detail.data && <Loaded detail={detail.data} online={online} />}
    </div>
  );
}

function Loaded({ detail, online }: { detail: ChangeRequestDetailVM; online: boolean }) {
  const cr = detail.changeRequest;
  const [commenting, setCommenting] = useState<CommentPlaceInput | null>(null);
  /** What became of the last comment started here, when it was not simply sent (it shows among the threads). */
  const [commentNotice, setCommentNotice] = useState<string | null>(null);
  const place = (page?: PageDiffVM): CommentPlaceInput => ({
    spaceId: cr.spaceId,
    changeRequestId: cr.id,
    changeRequestNumber: cr.number,
    ...(page ? { pageId: page.pageId, pageTitle: page.title } : {}),
  });
  const commented = (o: ActOutcomeVM) => {
    setCommenting(null);
    setCommentNotice(outcomeWords(o));
  };
  const commentBlocked = detail.actions.comment;

  return (
    <article aria-label={`Change request #${cr.number}`} data-testid="cr-detail">
      <Head detail={detail} />
      <Lifecycle detail={detail} online={online} />
      <Reviews detail={detail} online={online} />
      <PageChanges
        detail={detail}
        canComment={commentBlocked.length === 0}
        commentingPageId={commenting?.pageId && !commenting.line ? commenting.pageId : null}
        place={place}
        onComment={(d) => setCommenting(place(d))}
        onCommented={commented}
        onCancel={() => setCommenting(null)}
      />
      <section aria-label="Comments">
        <div className="section-head">
          <h3>Comments ({detail.threads.length})</h3>
          <button type="button" disabled={commentBlocked.length > 0} onClick={() => setCommenting(place())}>
            New comment on #{cr.number}
          </button>
          {commentBlocked.length > 0 && <span className="action-note small blocked">{blockedWords(commentBlocked)}</span>}
        </div>
        {commentNotice && (
          <p className="notice queued" role="status">
            <span>{commentNotice}</span>
            <button type="button" className="link" onClick={() => setCommentNotice(null)} aria-label="Dismiss">
              ×
            </button>
          </p>
        )}
        {commenting && !commenting.pageId && <NewComment fixed={commenting} onDone={commented} onCancel={() => setCommenting(null)} />}
        {detail.threads.map((t) => (
          <Thread key={t.id} thread={t} compact />
        ))}
      </section>
    </article>
  );
}

/** Subject, status and who; the description; editing both; whether the writer's edits go here. */
function Head({ detail }: { detail: ChangeRequestDetailVM }) {
  const cr = detail.changeRequest;
  const act = useAct();
  const use = useAction();
  const session = useQuery('session.get', {}, []);
  const [subject, setSubject] = useState<string | null>(null);
  const [description, setDescription] = useState<string | null>(null);
  const id = useId();
  const ref = { spaceId: cr.spaceId, changeRequestId: cr.id };
  const editBlocked = detail.actions.edit;
  const mine = !!cr.createdBy && cr.createdBy.id === session.data?.user?.id;

  const saveSubject = async (e: FormEvent) => {
    e.preventDefault();
    if (subject === null || !subject.trim()) return;
    if ((await act.run('review.setSubject', { ...ref, subject: subject.trim() })) !== undefined) setSubject(null);
  };
  const saveDescription = async (e: FormEvent) => {
    e.preventDefault();
    if (description === null) return;
    if ((await act.run('review.setDescription', { ...ref, markdown: description })) !== undefined) setDescription(null);
  };

  return (
    <header className="cr-head">
      {subject === null ? (
        <div className="cr-title">
          <h2>
            <span className="cr-number">#{cr.number}</span> {cr.subject}
          </h2>
          <button type="button" className="link small" disabled={editBlocked.length > 0} onClick={() => setSubject(cr.subject)}>
            Edit subject
          </button>
        </div>
      ) : (
        <form className="inline-form" onSubmit={(e) => void saveSubject(e)}>
          <label className="sr-only" htmlFor={`${id}-subject`}>
            Subject
          </label>
          {/* biome-ignore lint/a11y/noAutofocus: the user just opened this form to type here. */}
          <input id={`${id}-subject`} value={subject} maxLength={100} onChange={(e) => setSubject(e.target.value)} autoFocus />
          <button type="submit" className="primary">
            Save
          </button>
          <button type="button" className="secondary" onClick={() => setSubject(null)}>
            Cancel
          </button>
        </form>
      )}
      <div className="cr-meta small">
        <span className={`badge status ${STATUS_CLASS[cr.status] ?? ''}`} data-testid="cr-status">
          {cr.status}
        </span>
        {cr.outdated && <span className="badge warn">behind main</span>}
        {detail.receivesYourEdits && <span className="badge edits">receives your edits</span>}
        <span className="muted">
          {cr.spaceTitle} · by <Person user={cr.createdBy} /> · updated {timeAgo(cr.updatedAt)}
        </span>
        <PendingMark pending={cr.pending} failure={cr.failure} />
      </div>
      {editBlocked.length > 0 && <p className="action-note small blocked">Editing: {blockedWords(editBlocked)}</p>}
      {description === null ? (
        <div className="cr-description-block">
          {detail.description ? <p className="cr-description">{detail.description}</p> : <p className="muted">No description.</p>}
          <button type="button" className="link small" disabled={editBlocked.length > 0} onClick={() => setDescription(detail.description ?? '')}>
            {detail.description ? 'Edit description' : 'Add a description'}
          </button>
        </div>
      ) : (
        <form className="edit-form" onSubmit={(e) => void saveDescription(e)}>
          <label className="field-label" htmlFor={`${id}-description`}>
            Description <span className="muted small">(Markdown)</span>
          </label>
          {/* biome-ignore lint/a11y/noAutofocus: the user just opened this form to type here. */}
          <textarea id={`${id}-description`} rows={4} value={description} onChange={(e) => setDescription(e.target.value)} autoFocus />
          <div className="form-buttons">
            <button type="submit" className="primary" disabled={act.busy}>
              Save
            </button>
            <button type="button" className="secondary" onClick={() => setDescription(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <ActFeedback act={act} />
      {mine && !detail.receivesYourEdits && (cr.status === 'open' || cr.status === 'draft') && (
        <div className="action-row">
          <button type="button" disabled={use.busy} onClick={() => void use.run('review.useChangeRequest', ref)}>
            Send my edits here
          </button>
          <span className="action-note small">Your next pushes of {cr.spaceTitle} go into this change request instead.</span>
        </div>
      )}
      <ErrorNotice error={use.error} onDismiss={use.clearError} />
    </header>
  );
}
