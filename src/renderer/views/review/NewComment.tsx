import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import type { ActOutcomeVM, PageNodeVM } from '../../../shared/contract';
import { ActFeedback, useAct } from '../../components/ActOutcome';
import { ErrorNotice } from '../../components/ErrorNotice';
import { useQuery } from '../../hooks/use-query';

/** Where a comment goes when the place is already known (a change request, a page of one). */
export interface CommentPlaceInput {
  spaceId: string;
  changeRequestId?: string;
  changeRequestNumber?: number;
  pageId?: string;
  pageTitle?: string;
  /** A line of the page in the change request: the comment goes on the block holding it. */
  line?: number;
}

/** Pages of the tree that are pages on the server (not a file not pushed yet, not a group or a link). */
function commentablePages(nodes: PageNodeVM[], depth = 0, out: { id: string; title: string; depth: number }[] = []) {
  for (const n of nodes) {
    if (n.kind === 'document' && !n.id.startsWith('new:')) out.push({ id: n.id, title: n.title, depth });
    commentablePages(n.children, depth + 1, out);
  }
  return out;
}

function placeWords(p: CommentPlaceInput): string {
  const cr = p.changeRequestId ? `change request #${p.changeRequestNumber ?? '?'}` : 'main content';
  return p.pageTitle ? `${p.line ? `line ${p.line} of ` : ''}“${p.pageTitle}” in ${cr}` : cr;
}

/**
 * Starts a comment: on a page of main, on a change request, or on a page of one. Online it is
 * sent at once; offline it is queued and shows as pending; a refusal shows the server's reason.
 */
export function NewComment({
  fixed,
  initial = '',
  suggestFrom,
  onDone,
  onCancel,
}: {
  fixed?: CommentPlaceInput;
  /** Text to start from. */
  initial?: string;
  /** On a line: the lines of the block it goes on, which "Suggest a change" puts in a ```suggestion block to edit. */
  suggestFrom?: string[];
  onDone(outcome: ActOutcomeVM, spaceId: string): void;
  onCancel(): void;
}) {
  const act = useAct();
  const id = useId();
  const [body, setBody] = useState(initial);
  const [chosen, setChosen] = useState<{ spaceId: string; changeRequestId: string; pageId: string }>({ spaceId: '', changeRequestId: '', pageId: '' });
  const place: CommentPlaceInput | null = fixed ?? null;

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    const where = place ?? {
      spaceId: chosen.spaceId,
      ...(chosen.changeRequestId ? { changeRequestId: chosen.changeRequestId } : {}),
      ...(chosen.pageId ? { pageId: chosen.pageId } : {}),
    };
    if (!where.spaceId || !body.trim() || (!where.changeRequestId && !where.pageId)) return;
    const outcome = await act.run('review.newComment', {
      spaceId: where.spaceId,
      ...(where.changeRequestId ? { changeRequestId: where.changeRequestId } : {}),
      ...(where.pageId ? { pageId: where.pageId } : {}),
      ...('line' in where && where.line ? { line: where.line } : {}),
      markdown: body.trim(),
    });
    if (outcome && outcome.outcome !== 'refused') {
      setBody('');
      onDone(outcome, where.spaceId);
    }
  };
  const ready = body.trim() !== '' && (place !== null || (chosen.spaceId !== '' && (chosen.changeRequestId !== '' || chosen.pageId !== '')));

  return (
    <form className="new-comment" aria-label="New comment" data-testid="new-comment" onSubmit={(e) => void send(e)}>
      {place ? (
        <p className="small">
          New comment on <strong>{placeWords(place)}</strong>
        </p>
      ) : (
        <PlacePicker chosen={chosen} onChange={setChosen} />
      )}
      <label htmlFor={id} className="field-label">
        Comment <span className="muted small">(Markdown; Ctrl+Enter to send)</span>
      </label>
      <textarea
        id={id}
        value={body}
        rows={4}
        onChange={(e) => setBody(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send();
        }}
      />
      <div className="form-buttons">
        <button type="submit" className="primary" disabled={!ready || act.busy}>
          Comment
        </button>
        {suggestFrom && (
          <button
            type="button"
            className="secondary"
            title="Propose new text for these lines: the writer applies it with one click"
            onClick={() => setBody((b) => `${b}${b && !b.endsWith('\n') ? '\n' : ''}\`\`\`suggestion\n${suggestFrom.join('\n')}\n\`\`\`\n`)}
          >
            Suggest a change
          </button>
        )}
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ActFeedback act={act} />
    </form>
  );
}

/** Space, then main content or one of its open change requests, then a page (needed on main). */
function PlacePicker({
  chosen,
  onChange,
}: {
  chosen: { spaceId: string; changeRequestId: string; pageId: string };
  onChange(next: { spaceId: string; changeRequestId: string; pageId: string }): void;
}) {
  const tree = useQuery('pages.tree', {}, ['catalog']);
  const crs = useQuery('review.attention', {}, ['review']);
  const spaces = tree.data ?? [];
  const spaceId = chosen.spaceId || spaces[0]?.spaceId || '';
  const pages = useMemo(() => commentablePages(spaces.find((s) => s.spaceId === spaceId)?.pages ?? []), [spaces, spaceId]);
  const open = (crs.data ?? []).filter((cr) => cr.spaceId === spaceId);
  const id = useId();
  const set = (patch: Partial<typeof chosen>) => onChange({ ...chosen, spaceId, ...patch });
  // The first space is chosen until the user picks another.
  useEffect(() => {
    if (!chosen.spaceId && spaceId) onChange({ ...chosen, spaceId });
  }, [chosen, spaceId, onChange]);
  return (
    <fieldset className="place-picker">
      <legend className="small">Where</legend>
      <ErrorNotice error={tree.error ?? crs.error} />
      <span className="field">
        <label htmlFor={`${id}-space`}>Space</label>
        <select id={`${id}-space`} value={spaceId} onChange={(e) => onChange({ spaceId: e.target.value, changeRequestId: '', pageId: '' })}>
          {spaces.length === 0 && <option value="">No synced space</option>}
          {spaces.map((s) => (
            <option key={s.spaceId} value={s.spaceId}>
              {s.title}
            </option>
          ))}
        </select>
      </span>
      <span className="field">
        <label htmlFor={`${id}-in`}>In</label>
        <select id={`${id}-in`} value={chosen.changeRequestId} onChange={(e) => set({ changeRequestId: e.target.value })}>
          <option value="">Main content</option>
          {open.map((cr) => (
            <option key={cr.id} value={cr.id}>
              #{cr.number} {cr.subject}
            </option>
          ))}
        </select>
      </span>
      <span className="field">
        <label htmlFor={`${id}-page`}>Page</label>
        <select id={`${id}-page`} value={chosen.pageId} onChange={(e) => set({ pageId: e.target.value })}>
          <option value="">{chosen.changeRequestId ? 'The whole change request' : 'Choose a page…'}</option>
          {pages.map((p) => (
            <option key={p.id} value={p.id}>
              {`${'\u00a0\u00a0'.repeat(p.depth)}${p.title}`}
            </option>
          ))}
        </select>
      </span>
    </fieldset>
  );
}
