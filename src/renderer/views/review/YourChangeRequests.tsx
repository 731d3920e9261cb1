import { useId, useState, type FormEvent } from 'react';
import type { ChangeRequestVM, SpaceTargetVM } from '../../../shared/contract';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useAction, useQuery } from '../../hooks/use-query';
import { plural } from '../../lib/format';

type OpenChangeRequest = (ref: { spaceId: string; changeRequestId: string }) => void;

function targetWords(t: SpaceTargetVM): string {
  switch (t.state) {
    case 'open':
      return `Your edits go to #${t.number ?? '?'} “${t.subject ?? ''}” (${plural(t.pages, 'page')} so far${t.chosen ? ', chosen by you' : ''}).`;
    case 'new':
      return t.subject ? `Your next push opens a new change request, “${t.subject}”.` : 'Your next push opens a new change request.';
    case 'creating':
      return 'A new change request is being opened for your edits…';
    case 'none':
      return 'Your next push opens a new change request, with a subject that says what it holds.';
  }
}

/**
 * A writer's change requests by topic: which one receives each synced space's edits, a new one
 * started with a subject, and the pushes pointed back at another open one of the writer's.
 */
export function YourChangeRequests({ onOpen }: { onOpen: OpenChangeRequest }) {
  const targets = useQuery('review.targets', {}, ['review', 'catalog']);
  const attention = useQuery('review.attention', {}, ['review']);
  const mine = (attention.data ?? []).filter((cr) => cr.reasons.includes('mine'));
  return (
    <div className="your-crs" data-testid="your-change-requests">
      <ErrorNotice error={targets.error ?? attention.error} />
      {targets.data?.length === 0 && <p className="muted empty">No space is synced yet. Choose spaces in Spaces, then sync.</p>}
      {targets.data?.map((t) => (
        <Target key={t.spaceId} target={t} mine={mine.filter((cr) => cr.spaceId === t.spaceId)} onOpen={onOpen} />
      ))}
    </div>
  );
}

function Target({ target, mine, onOpen }: { target: SpaceTargetVM; mine: ChangeRequestVM[]; onOpen: OpenChangeRequest }) {
  const action = useAction();
  const [subject, setSubject] = useState('');
  const id = useId();
  const others = new Map<string, { id: string; number: number | null; subject: string; pages: number | null }>();
  for (const s of target.setAside) others.set(s.changeRequestId, { id: s.changeRequestId, number: s.number, subject: s.subject, pages: s.pages });
  for (const cr of mine) if (!others.has(cr.id)) others.set(cr.id, { id: cr.id, number: cr.number, subject: cr.subject, pages: null });
  if (target.changeRequestId) others.delete(target.changeRequestId);

  const start = async (e: FormEvent) => {
    e.preventDefault();
    const s = subject.trim();
    const done = await action.run('review.startChangeRequest', { spaceId: target.spaceId, ...(s ? { subject: s } : {}) });
    if (done) setSubject('');
  };

  return (
    <section className="card target" aria-labelledby={`${id}-title`} data-testid={`target-${target.spaceId}`}>
      <h2 id={`${id}-title`}>{target.spaceTitle}</h2>
      <p data-testid="target-state">
        {targetWords(target)}{' '}
        {target.state === 'open' && target.changeRequestId && (
          <button type="button" className="link" onClick={() => onOpen({ spaceId: target.spaceId, changeRequestId: target.changeRequestId! })}>
            Open #{target.number}
          </button>
        )}
      </p>
      {others.size > 0 && (
        <>
          <h3>Your other open change requests here</h3>
          <ul className="other-crs">
            {[...others.values()].map((cr) => (
              <li key={cr.id}>
                <button type="button" className="link" onClick={() => onOpen({ spaceId: target.spaceId, changeRequestId: cr.id })}>
                  #{cr.number ?? '?'} {cr.subject}
                </button>
                {cr.pages !== null && <span className="muted small"> {plural(cr.pages, 'page')}</span>}
                <button
                  type="button"
                  disabled={action.busy}
                  onClick={() => void action.run('review.useChangeRequest', { spaceId: target.spaceId, changeRequestId: cr.id })}
                >
                  Send my edits here
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <form className="inline-form start-cr" onSubmit={(e) => void start(e)}>
        <label htmlFor={`${id}-subject`}>New topic</label>
        <input id={`${id}-subject`} value={subject} maxLength={100} placeholder="What it is about" onChange={(e) => setSubject(e.target.value)} />
        <button type="submit" disabled={action.busy}>
          Start a change request
        </button>
      </form>
      <p className="muted small">The next pushes of {target.spaceTitle} go into the change request you start or choose; the one before stays open.</p>
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </section>
  );
}
