import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ActOutcomeVM, CommentVM, ReactionVM, ReplyVM, ThreadVM } from '../../shared/contract';
import { routeHash } from '../../shared/routes';
import { useAction } from '../hooks/use-query';
import { ActFeedback, useAct } from './ActOutcome';
import { ErrorNotice } from './ErrorNotice';
import { PendingMark } from './Pending';
import { Person } from './Person';
import { timeAgo } from '../lib/format';

const QUICK_EMOJI = ['👍', '🎉', '❤️', '👀'];

/** "Alex Rivera and Sam Okafor", "you, Alex Rivera and 3 others". */
export function whoReacted(r: ReactionVM): string {
  const names = (r.users ?? []).map((u) => u.displayName);
  const others = r.count - names.length;
  if (others > 0) names.push(`${others} ${others === 1 ? 'other' : 'others'}`);
  if (names.length === 0) return `${r.count} ${r.count === 1 ? 'person' : 'people'}`;
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

function Reactions({ reactions, onToggle, label }: { reactions: ReactionVM[]; onToggle(emoji: string, remove: boolean): void; label: string }) {
  const shown = new Set(reactions.map((r) => r.emoji));
  return (
    <div className="reactions" role="group" aria-label={`Reactions to ${label}`}>
      {reactions.map((r) => {
        const who = whoReacted(r);
        return (
          <button
            key={r.emoji}
            type="button"
            className={`reaction${r.mine ? ' mine' : ''}${r.pending ? ' pending' : ''}`}
            aria-pressed={r.mine}
            aria-label={`${r.emoji} ${r.count}, from ${who}${r.pending ? ' (pending)' : ''}. ${r.mine ? 'Remove your reaction' : 'Add yours'}`}
            title={`${who}${r.pending ? ' (pending)' : ''}`}
            onClick={() => onToggle(r.emoji, r.mine)}
          >
            <span aria-hidden="true">{r.emoji}</span> <span className="reaction-count">{r.count}</span>
          </button>
        );
      })}
      {QUICK_EMOJI.filter((e) => !shown.has(e)).map((e) => (
        <button key={e} type="button" className="reaction add" aria-label={`React with ${e}`} title={`React with ${e}`} onClick={() => onToggle(e, false)}>
          {e}
        </button>
      ))}
    </div>
  );
}

/** Where a comment is: its page, linked to the Pages view when the folder has it, its line there, and its change request. */
export function CommentPlace({ comment, showChangeRequest = false }: { comment: CommentVM; showChangeRequest?: boolean }) {
  const cr = showChangeRequest && comment.changeRequestNumber !== null ? ` in change request #${comment.changeRequestNumber}` : '';
  const outdated = comment.outdated ? (
    <span className="badge warn" title="Its lines changed since it was made" data-testid="thread-outdated">
      Outdated
    </span>
  ) : null;
  if (!comment.pageTitle) return cr ? <span className="muted small">{cr.trim()}</span> : null;
  return (
    <span className="muted small comment-place">
      on{' '}
      {comment.pagePath ? (
        <a href={routeHash({ name: 'pages.open', spaceId: comment.spaceId, path: comment.pagePath })} title={`Open ${comment.pagePath} in Pages`}>
          {comment.pageTitle}
        </a>
      ) : (
        comment.pageTitle
      )}
      {typeof comment.line === 'number' && <span data-testid="thread-line">, line {comment.line}</span>}
      {cr} {outdated}
    </span>
  );
}

/** A comment's text without its ```suggestion block, which shows as a change of its own. */
function withoutSuggestion(markdown: string): string {
  const lines = markdown.split('\n');
  const open = lines.findIndex((l) => /^ {0,3}(`{3,}|~{3,})[ \t]*suggestion[ \t]*$/.test(l));
  if (open < 0) return markdown;
  const fence = /^ {0,3}(`{3,}|~{3,})/.exec(lines[open]!)![1]!;
  const end = lines.findIndex((l, i) => i > open && l.trim().startsWith(fence[0]!.repeat(fence.length)) && /^[\s`~]*$/.test(l));
  return [...lines.slice(0, open), ...lines.slice(end < 0 ? lines.length : end + 1)].join('\n').trim();
}

/** A suggested change: the lines it replaces and those it puts instead; the writer applies it to their file with one click. */
function Suggestion({ thread }: { thread: ThreadVM }) {
  const apply = useAction();
  const [done, setDone] = useState<string | null>(null);
  const s = thread.suggestion!;
  const canApply = thread.status === 'open' && !thread.outdated && !thread.pending;
  return (
    <div className="suggestion" data-testid="suggestion">
      <p className="small muted">Suggested change{thread.outdated ? ' (outdated: its lines changed since)' : ''}</p>
      <pre className="diff" role="figure" aria-label="Suggested change">
        {(s.replaces ?? []).map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: lines have no identity but their place.
          <div key={`r${i}`} className="diff-line removed">
            <span className="diff-sign" aria-hidden="true">
              −
            </span>
            <span className="sr-only">removed: </span>
            {l || ' '}
          </div>
        ))}
        {s.lines.map((l, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: as above.
          <div key={`a${i}`} className="diff-line added">
            <span className="diff-sign" aria-hidden="true">
              +
            </span>
            <span className="sr-only">added: </span>
            {l || ' '}
          </div>
        ))}
      </pre>
      {canApply && !done && (
        <button
          type="button"
          disabled={apply.busy}
          onClick={async () => {
            const r = await apply.run('review.applySuggestion', commentRef(thread));
            if (r) setDone(r.message);
          }}
        >
          Apply suggestion
        </button>
      )}
      {done && (
        <p className="notice ok small" role="status">
          {done}
        </p>
      )}
      <ErrorNotice error={apply.error} onDismiss={apply.clearError} />
    </div>
  );
}

/** Edit and Delete for one's own comment or reply; deleting asks once more. */
function OwnControls({ busy, what, onEdit, onDelete }: { busy: boolean; what: 'comment' | 'reply'; onEdit(): void; onDelete(): void }) {
  const [confirming, setConfirming] = useState(false);
  if (confirming) {
    return (
      <span className="own-controls">
        <span className="small">Delete this {what}?</span>
        <button
          type="button"
          className="danger"
          disabled={busy}
          onClick={() => {
            setConfirming(false);
            onDelete();
          }}
        >
          Delete
        </button>
        <button type="button" className="secondary" onClick={() => setConfirming(false)}>
          Keep it
        </button>
      </span>
    );
  }
  return (
    <span className="own-controls">
      <button type="button" className="link" disabled={busy} onClick={onEdit} aria-label={`Edit your ${what}`}>
        Edit
      </button>
      <button type="button" className="link" disabled={busy} onClick={() => setConfirming(true)} aria-label={`Delete your ${what}`}>
        Delete
      </button>
    </span>
  );
}

function EditBody({
  what,
  initial,
  busy,
  onSave,
  onCancel,
}: {
  what: string;
  initial: string;
  busy: boolean;
  onSave(markdown: string): Promise<boolean>;
  onCancel(): void;
}) {
  const [text, setText] = useState(initial);
  const id = useId();
  const save = async (e?: FormEvent) => {
    e?.preventDefault();
    if (!text.trim() || text === initial) return onCancel();
    if (await onSave(text)) onCancel();
  };
  return (
    <form className="edit-form" onSubmit={(e) => void save(e)}>
      <label className="sr-only" htmlFor={id}>
        Edit your {what}
      </label>
      <textarea
        id={id}
        value={text}
        rows={3}
        // biome-ignore lint/a11y/noAutofocus: the user just asked to edit this text.
        autoFocus
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void save();
          if (e.key === 'Escape') {
            e.stopPropagation();
            onCancel();
          }
        }}
      />
      <div className="form-buttons">
        <button type="submit" className="primary" disabled={busy || !text.trim()}>
          Save
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function Reply({ reply, thread }: { reply: ReplyVM; thread: ThreadVM }) {
  const act = useAct();
  const [editing, setEditing] = useState(false);
  const ref = commentRef(thread);
  return (
    <li className="reply" data-testid={`reply-${reply.id}`}>
      <header className="comment-head">
        <Person user={reply.author} />
        <span className="muted small">{timeAgo(reply.postedAt)}</span>
        <PendingMark pending={reply.pending} failure={reply.failure} />
        <span className="spacer" />
        {reply.mine && !editing && (
          <OwnControls
            busy={act.busy}
            what="reply"
            onEdit={() => setEditing(true)}
            onDelete={() => void act.run('review.deleteComment', { ...ref, replyId: reply.id })}
          />
        )}
      </header>
      {editing ? (
        <EditBody
          what="reply"
          initial={reply.markdown}
          busy={act.busy}
          onCancel={() => setEditing(false)}
          onSave={async (markdown) => kept(await act.run('review.editComment', { ...ref, replyId: reply.id, markdown }))}
        />
      ) : (
        <div className="comment-body">{reply.markdown}</div>
      )}
      <Reactions
        label="the reply"
        reactions={reply.reactions}
        onToggle={(emoji, remove) => void act.run('review.react', { ...ref, replyId: reply.id, emoji, remove })}
      />
      <ActFeedback act={act} />
    </li>
  );
}

/** An edit sent or queued closes its form; one refused keeps the text, with the server's reason below. */
const kept = (o: ActOutcomeVM | undefined): boolean => o !== undefined && o.outcome !== 'refused';

const commentRef = (c: CommentVM) => ({ spaceId: c.spaceId, commentId: c.id, ...(c.changeRequestId ? { changeRequestId: c.changeRequestId } : {}) });

/**
 * One comment with its replies: reply, react, resolve or reopen, and edit or delete what is yours.
 * Works offline: a queued action shows at once as pending; one the server refused, with its reason.
 */
export function Thread({
  thread,
  compact = false,
  showChangeRequest = false,
  onDeleted,
}: {
  thread: ThreadVM;
  compact?: boolean;
  showChangeRequest?: boolean;
  /** The comment was deleted (or its deletion queued): the pane showing it can close. */
  onDeleted?(outcome: ActOutcomeVM): void;
}) {
  const act = useAct();
  const [reply, setReply] = useState('');
  const [editing, setEditing] = useState(false);
  const ref = commentRef(thread);

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    const text = reply.trim();
    if (!text) return;
    const before = reply;
    setReply('');
    const ok = await act.run('review.reply', { ...ref, markdown: text });
    if (ok === undefined) setReply(before);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send();
  };
  const remove = async () => {
    const outcome = await act.run('review.deleteComment', ref);
    if (outcome && outcome.outcome !== 'refused') onDeleted?.(outcome);
  };

  return (
    <article
      className={`thread${compact ? ' compact' : ''}`}
      data-testid={`thread-${thread.id}`}
      aria-label={`Comment by ${thread.author?.displayName ?? 'unknown'}`}
    >
      <header className="comment-head">
        <Person user={thread.author} />
        <span className="muted small">{timeAgo(thread.postedAt)}</span>
        <CommentPlace comment={thread} showChangeRequest={showChangeRequest} />
        <span className={`badge ${thread.status === 'resolved' ? 'ok' : 'open'}`} data-testid="thread-status">
          {thread.status === 'resolved' ? 'Resolved' : 'Open'}
        </span>
        <PendingMark pending={thread.pending} failure={thread.failure} inReview={thread.inPendingReview} />
        <span className="spacer" />
        {thread.mine && !editing && <OwnControls busy={act.busy} what="comment" onEdit={() => setEditing(true)} onDelete={() => void remove()} />}
        {thread.status === 'open' ? (
          <button type="button" disabled={act.busy || thread.inPendingReview} onClick={() => void act.run('review.resolve', ref)}>
            Resolve
          </button>
        ) : (
          <button type="button" disabled={act.busy} onClick={() => void act.run('review.reopen', ref)}>
            Reopen
          </button>
        )}
      </header>
      {editing ? (
        <EditBody
          what="comment"
          initial={thread.markdown}
          busy={act.busy}
          onCancel={() => setEditing(false)}
          onSave={async (markdown) => kept(await act.run('review.editComment', { ...ref, markdown }))}
        />
      ) : (
        <div className="comment-body">{thread.suggestion ? withoutSuggestion(thread.markdown) : thread.markdown}</div>
      )}
      {thread.suggestion && !editing && <Suggestion thread={thread} />}
      <Reactions label="the comment" reactions={thread.reactions} onToggle={(emoji, remove) => void act.run('review.react', { ...ref, emoji, remove })} />
      <ActFeedback act={act} />
      {thread.replies.length > 0 && (
        <ol className="replies" aria-label="Replies">
          {thread.replies.map((r) => (
            <Reply key={r.id} reply={r} thread={thread} />
          ))}
        </ol>
      )}
      <form className="reply-form" onSubmit={(e) => void send(e)}>
        <label className="sr-only" htmlFor={`reply-${thread.id}`}>
          Reply
        </label>
        <textarea
          id={`reply-${thread.id}`}
          disabled={thread.inPendingReview}
          value={reply}
          onChange={(e) => setReply(e.target.value)}
          onKeyDown={onKey}
          placeholder="Reply… (Ctrl+Enter to send)"
          rows={2}
        />
        <button type="submit" className="primary" disabled={!reply.trim()}>
          Reply
        </button>
      </form>
    </article>
  );
}
