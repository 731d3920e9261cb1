/**
 * `quire cr review <n> --start|--pending|--discard`, and finishing a pending review with
 * `--approve|--request-changes|--comment`: its comments, kept in the folder meanwhile, are sent in
 * order and then the verdict. A review needs the server's answer: offline, or when the change
 * request can no longer be reviewed, the pending review is kept as it is.
 */
import { NetworkError } from '../../core/api';
import { ActionNotPossibleError, type ChangeRequestView, type FinishedReview, type PendingReview } from '../../core/review';
import { flag, has } from './args';
import type { Session } from './cr-actions';
import { EXIT } from './io';
import { errorMessage } from './messages';
import { safeField } from './terminal-text';
import { plural } from '../../../shared/plural';
import { when } from '../../../shared/when';

const NO_VERDICT = 'no verdict: the API takes a review only as an approval or a request for changes';

/** `--start`, `--pending`, `--discard`. */
export async function pendingReview(s: Session, cr: ChangeRequestView): Promise<number> {
  const open = s.review.pendingReview(cr.id);
  if (has(s.args, 'start')) {
    if (open) {
      s.io.stdout(`Your pending review of #${cr.number} is open already (started ${when(open.startedAt)}, ${plural(open.comments.length, 'comment')}).`);
      return EXIT.ok;
    }
    try {
      s.review.startReview(cr.id);
    } catch (err) {
      if (!(err instanceof ActionNotPossibleError)) throw err;
      s.io.stdout(`Starting a review of #${cr.number}: not possible — ${safeField(err.message)}.`);
      return EXIT.error;
    }
    s.io.stdout(
      `Started a pending review of #${cr.number}: comments on it (\`quire comment new --change-request ${cr.number} …\`) are kept here until you finish it with \`quire cr review ${cr.number} --approve\`, \`--request-changes\` or \`--comment\`.`,
    );
    return EXIT.ok;
  }
  if (has(s.args, 'discard')) {
    const dropped = s.review.discardReview(cr.id);
    s.io.stdout(
      dropped === null
        ? `No pending review of #${cr.number}: nothing to discard.`
        : `Discarded your pending review of #${cr.number} (${plural(dropped, 'comment')}): nothing of it was sent.`,
    );
    return EXIT.ok;
  }
  if (has(s.args, 'json')) {
    s.io.stdout(JSON.stringify({ changeRequest: cr.number, pendingReview: open && reviewJson(s, open) }, null, 2));
    return EXIT.ok;
  }
  if (!open) {
    s.io.stdout(`No pending review of #${cr.number}: \`quire cr review ${cr.number} --start\` opens one.`);
    return EXIT.ok;
  }
  const lines = open.comments.map((c) => `  ${c.id} on ${where(s, cr, c.pageId)}: ${safeField(c.body.split('\n')[0] ?? '')}`);
  s.io.stdout([`Your pending review of #${cr.number} (started ${when(open.startedAt)}): ${plural(open.comments.length, 'comment')}`, ...lines].join('\n'));
  return EXIT.ok;
}

function reviewJson(s: Session, r: PendingReview) {
  return {
    startedAt: r.startedAt,
    comments: r.comments.map((c) => ({
      id: c.id,
      body: c.body,
      pageId: c.pageId,
      pageTitle: c.pageId ? (s.mirror.content.page(c.spaceId, c.pageId)?.title ?? null) : null,
      postedAt: c.postedAt,
    })),
  };
}

/** “Setup” for a comment on a page (by its title when the mirror knows it), else the change request. */
function where(s: Session, cr: ChangeRequestView, pageId: string | null): string {
  if (!pageId) return `change request #${cr.number}`;
  const title = s.mirror.content.page(cr.spaceId, pageId)?.title ?? s.review.changeRequestDiff(cr.id)?.pages.find((p) => p.pageId === pageId)?.title;
  return `“${safeField(title ?? pageId)}”`;
}

/** `--approve|--request-changes|--comment` with a pending review open. */
export async function finishReview(s: Session, cr: ChangeRequestView): Promise<number> {
  const verdict = has(s.args, 'approve') ? 'approved' : has(s.args, 'request-changes') ? 'changes-requested' : 'comment';
  const what = { approved: `Approving #${cr.number}`, 'changes-requested': `Requesting changes on #${cr.number}`, comment: `Commenting on #${cr.number}` }[
    verdict
  ];
  const kept = s.review.pendingReview(cr.id)!.comments.length;
  const keptWords = `Your pending review (${plural(kept, 'comment')}) is kept.`;
  if (!s.api) {
    s.io.stdout(`${what}: needs the server's answer, and Quire cannot ask it now (${safeField(s.why ?? 'no API')}). ${keptWords}`);
    return EXIT.error;
  }
  let done: FinishedReview;
  try {
    done = await s.review.finishReview(s.api, cr.id, verdict, flag(s.args, 'body'), s.io.signal);
  } catch (err) {
    if (s.io.signal.aborted) throw err;
    if (err instanceof ActionNotPossibleError) s.io.stdout(`${what}: not possible — ${safeField(err.message)}. ${keptWords}`);
    else if (err instanceof NetworkError)
      s.io.stdout(`${what}: needs the server's answer, and the API is not reachable now (${safeField(errorMessage(err))}). ${keptWords}`);
    else s.io.stdout(`${what}: ${safeField(errorMessage(err, s.dir))}. ${keptWords}`);
    return EXIT.error;
  }
  s.io.stdout(`${what}: ${finishedWords(s, done, kept)}`);
  return done.refused.length > 0 ? EXIT.error : EXIT.ok;
}

/** What became of a finished review, after "Approving #3: ". */
function finishedWords(s: Session, r: FinishedReview, kept: number): string {
  const verdictDone = r.verdictAction === null || r.verdictAction.state === 'done';
  const noVerdict = r.verdict === 'comment' ? ` (${NO_VERDICT})` : '';
  const sentComments = `${r.commentsSent} of ${plural(r.comments, 'comment')} sent`;
  if (r.refused.length > 0) {
    const refused = r.refused.map((a) => `${s.review.describeAction(a)}: ${safeField(a.message ?? 'no reason given')}`).join('; ');
    return `${sentComments}; refused by the server — ${safeField(refused)}. \`quire review\` lists what was refused.`;
  }
  if (r.commentsSent === r.comments && verdictDone) {
    return kept === 0 ? `sent${noVerdict}.` : `sent, with the ${plural(kept, 'comment')} of your pending review${noVerdict}.`;
  }
  const commentsLeft = r.comments - r.commentsSent;
  const rest = [commentsLeft > 0 ? plural(commentsLeft, 'comment') : null, verdictDone ? null : 'your verdict'].filter(Boolean).join(' and ');
  const why = r.stoppedBy ?? 'the server failed on part of it';
  return `${sentComments}; the rest of your review (${rest}) is queued — ${safeField(why)}. The next \`quire sync\` (or \`quire review\`) sends it, nothing twice.`;
}
