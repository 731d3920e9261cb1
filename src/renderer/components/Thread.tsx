import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { ReactionVM, ThreadVM } from '../../shared/contract';
import { useAction } from '../hooks/use-query';
import { ErrorNotice } from './ErrorNotice';
import { PendingMark } from './Pending';
import { Person } from './Person';
import { timeAgo } from '../lib/format';

const QUICK_EMOJI = ['👍', '🎉', '❤️', '👀'];

function Reactions({ reactions, onToggle, label }: { reactions: ReactionVM[]; onToggle(emoji: string, remove: boolean): void; label: string }) {
  const shown = new Set(reactions.map((r) => r.emoji));
  return (
    <div className="reactions" role="group" aria-label={`Reactions to ${label}`}>
      {reactions.map((r) => (
        <button
          key={r.emoji}
          type="button"
          className={`reaction${r.mine ? ' mine' : ''}${r.pending ? ' pending' : ''}`}
          aria-pressed={r.mine}
          title={r.mine ? 'Remove your reaction' : 'React'}
          onClick={() => onToggle(r.emoji, r.mine)}
        >
          {r.emoji} {r.count}
        </button>
      ))}
      {QUICK_EMOJI.filter((e) => !shown.has(e)).map((e) => (
        <button key={e} type="button" className="reaction add" aria-label={`React with ${e}`} onClick={() => onToggle(e, false)}>
          {e}
        </button>
      ))}
    </div>
  );
}

/** One comment with its replies: reply, react, resolve or reopen. Works offline; queued actions show as pending. */
export function Thread({ thread, compact = false }: { thread: ThreadVM; compact?: boolean }) {
  const action = useAction();
  const [reply, setReply] = useState('');
  const ref = {
    spaceId: thread.spaceId,
    commentId: thread.id,
    ...(thread.changeRequestId ? { changeRequestId: thread.changeRequestId } : {}),
  };

  const send = async (e?: FormEvent) => {
    e?.preventDefault();
    const text = reply.trim();
    if (!text) return;
    const before = reply;
    setReply('');
    const ok = await action.run('review.reply', { ...ref, markdown: text });
    if (ok === undefined) setReply(before);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void send();
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
        {thread.pageTitle && <span className="muted small">on {thread.pageTitle}</span>}
        <span className={`badge ${thread.status === 'resolved' ? 'ok' : 'open'}`} data-testid="thread-status">
          {thread.status === 'resolved' ? 'Resolved' : 'Open'}
        </span>
        <PendingMark pending={thread.pending} failure={thread.failure} />
        <span className="spacer" />
        {thread.status === 'open' ? (
          <button type="button" disabled={action.busy} onClick={() => void action.run('review.resolve', ref)}>
            Resolve
          </button>
        ) : (
          <button type="button" disabled={action.busy} onClick={() => void action.run('review.reopen', ref)}>
            Reopen
          </button>
        )}
      </header>
      <div className="comment-body">{thread.markdown}</div>
      <Reactions label="the comment" reactions={thread.reactions} onToggle={(emoji, remove) => void action.run('review.react', { ...ref, emoji, remove })} />
      {thread.replies.length > 0 && (
        <ol className="replies" aria-label="Replies">
          {thread.replies.map((r) => (
            <li key={r.id} className="reply" data-testid={`reply-${r.id}`}>
              <header className="comment-head">
                <Person user={r.author} />
                <span className="muted small">{timeAgo(r.postedAt)}</span>
                <PendingMark pending={r.pending} failure={r.failure} />
              </header>
              <div className="comment-body">{r.markdown}</div>
              <Reactions
                label="the reply"
                reactions={r.reactions}
                onToggle={(emoji, remove) => void action.run('review.react', { ...ref, replyId: r.id, emoji, remove })}
              />
            </li>
          ))}
        </ol>
      )}
      <form className="reply-form" onSubmit={(e) => void send(e)}>
        <label className="sr-only" htmlFor={`reply-${thread.id}`}>
          Reply
        </label>
        <textarea
          id={`reply-${thread.id}`}
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
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </article>
  );
}
