/**
 * The `quire cr` actions. Reviewers, archive, reopen and edit act at once when the API answers
 * and otherwise queue (shown as pending, sent by the next sync); merge, update and a review
 * need the server's answer, so offline they say so and do nothing. `new` and `use` choose
 * which change request a space's pushes go to (they hold the folder's turn, as a sync does).
 */
import { type ApiClient, NetworkError } from '../../core/api';
import { explainStorageError, type Mirror } from '../../core/mirror';
import { type ActionInput, type ChangeRequestView, markdownToDocument, pickPerson, ReviewService } from '../../core/review';
import { changeRequestTarget, keepUserSubject, startChangeRequest, pointPushesAt } from '../../core/sync';
import { all, dirFlag, flag, has, UsageError, type ParsedArgs } from './args';
import { withFolderTurn } from './folder-turn';
import { EXIT, type CliIo } from './io';
import { errorMessage } from './messages';
import { heldBack } from './cr-merge';
import { finishReview, pendingReview } from './cr-review';
import { viewed } from './cr-viewed';
import { changeRequestFor, describeOutcome, parseNumber, spaceFor, tryApi, whyNotDone } from './review-lookup';
import { safeField } from './terminal-text';
import { oneLineSubject, subjectProblem } from '../../../shared/subject';

export const ACTIONS = ['review', 'viewed', 'reviewers', 'merge', 'update', 'archive', 'reopen', 'edit', 'new', 'use'] as const;
type Action = (typeof ACTIONS)[number];

/** `cr review`'s modes: one of them. */
const REVIEW_MODES = ['approve', 'request-changes', 'comment', 'start', 'pending', 'discard'] as const;

export interface CrContext {
  openMirror(dir: string): Mirror;
  apiFor(mirror: Pick<Mirror, 'catalog' | 'syncFolder'>): Promise<ApiClient>;
}

export interface Session {
  dir: string;
  mirror: Mirror;
  review: ReviewService;
  api: ApiClient | null;
  why: string | null;
  args: ParsedArgs;
  io: CliIo;
}

/** The folder's mirror, its review service and the API when one can be had (else why not): `use` runs with them, and the mirror is closed after. */
export async function withSession<T>(args: ParsedArgs, io: CliIo, ctx: CrContext, use: (s: Session) => Promise<T>): Promise<T> {
  const dir = dirFlag(args);
  const mirror = ctx.openMirror(dir);
  try {
    const { api, why } = await tryApi(ctx, mirror);
    return await use({ dir, mirror, review: new ReviewService(mirror), api, why, args, io });
  } finally {
    mirror.close();
  }
}

export async function act(action: Action, rest: string[], args: ParsedArgs, io: CliIo, ctx: CrContext): Promise<number> {
  const arity = action === 'new' ? 0 : action === 'viewed' ? 2 : 1;
  if (rest.length !== arity)
    throw new UsageError(
      arity === 0 ? `unexpected argument "${rest[0]}"` : `quire cr ${action} needs one change request number${arity === 2 ? ' and a page' : ''}`,
    );
  const n = action === 'new' ? 0 : parseNumber(rest[0]);
  checkFlags(action, args);
  return withSession(args, io, ctx, async (s) => {
    if (action === 'new') return await startNew(s);
    const cr = await changeRequestFor(s.review, s.mirror, args, n, s.api, io.signal);
    switch (action) {
      case 'review':
        if (!['approve', 'request-changes', 'comment'].some((m) => has(args, m))) return await pendingReview(s, cr);
        if (s.review.pendingReview(cr.id)) return await finishReview(s, cr);
        if (has(args, 'comment')) {
          // No pending review: a plain comment on the change request (the API has no comment-only review).
          const body = flag(args, 'body');
          if (!body?.trim()) throw new UsageError('quire cr review --comment needs --body <markdown> when no pending review is open');
          return await queued(s, `Commenting on #${cr.number}`, cr, { kind: 'postComment', spaceId: cr.spaceId, changeRequestId: cr.id, body });
        }
        return await needsServer(s, action, cr);
      case 'merge':
        if (!has(args, 'force') && (await heldBack(s, cr))) return EXIT.error;
        return await needsServer(s, action, cr);
      case 'update':
        return await needsServer(s, action, cr);
      case 'viewed':
        return await viewed(s, cr, rest[1]!);
      case 'reviewers':
        return await reviewers(s, cr);
      case 'archive':
      case 'reopen':
        return await queued(s, `${action === 'archive' ? 'Archiving' : 'Reopening'} #${cr.number}`, cr, {
          kind: 'editChangeRequest',
          spaceId: cr.spaceId,
          changeRequestId: cr.id,
          status: action === 'archive' ? 'archived' : 'open',
        });
      case 'edit':
        return await edit(s, cr);
      case 'use':
        return await use(s, cr);
    }
  });
}

/** Usage errors before anything is opened or sent. */
function checkFlags(action: Action, args: ParsedArgs): void {
  if (action === 'review' && REVIEW_MODES.filter((m) => has(args, m)).length !== 1)
    throw new UsageError(`quire cr review needs one of ${REVIEW_MODES.map((m) => `--${m}`).join(', ')}`);
  if (action === 'review' && flag(args, 'body') !== undefined && !['approve', 'request-changes', 'comment'].some((m) => has(args, m)))
    throw new UsageError('--body goes with --approve, --request-changes or --comment');
  if (action === 'reviewers' && all(args, 'add').length + all(args, 'remove').length === 0)
    throw new UsageError('quire cr reviewers needs --add <user> or --remove <user>');
  if (action === 'edit' && flag(args, 'subject') === undefined && flag(args, 'description') === undefined)
    throw new UsageError('quire cr edit needs --subject <s>, --description <markdown>, or both');
  const subject = subjectFlag(args);
  const problem = subject === undefined ? null : subjectProblem(subject);
  if (problem) throw new UsageError(`--subject ${problem}.`, { usage: false });
}

/** `--subject` on one line (checked by checkFlags); undefined when not given. */
function subjectFlag(args: ParsedArgs): string | undefined {
  const subject = flag(args, 'subject');
  return subject === undefined ? undefined : oneLineSubject(subject);
}

/** Sent at once, or queued; says which. */
async function queued(s: Session, what: string, cr: ChangeRequestView, input: ActionInput): Promise<number> {
  const action =
    input.kind === 'editChangeRequest' && input.status === 'archived' ? 'archive' : input.kind === 'editChangeRequest' && input.status ? 'reopen' : null;
  const blockers = action ? s.review.blockers(cr.id, action) : [];
  if (blockers.length > 0) {
    s.io.stdout(`${what}: not possible — ${blockers.map((b) => safeField(b.message)).join('; ')}.`);
    return EXIT.error;
  }
  const result = await s.review.act(input, s.api, s.io.signal);
  if (!s.api && result.outcome === 'queued') result.message = s.why;
  s.io.stdout(describeOutcome(what, result));
  return result.outcome === 'refused' ? EXIT.error : EXIT.ok;
}

/** Merge, update from main, a review: the server's answer or nothing. */
async function needsServer(s: Session, action: 'review' | 'merge' | 'update', cr: ChangeRequestView): Promise<number> {
  const approve = has(s.args, 'approve');
  const what = {
    review: `${approve ? 'Approving' : 'Requesting changes on'} #${cr.number}`,
    merge: `Merging #${cr.number}`,
    update: `Updating #${cr.number} from main`,
  }[action];
  try {
    if (!s.api) throw new Error(s.why ?? 'no API');
    if (action === 'review') {
      await s.review.review(s.api, cr.id, approve ? 'approved' : 'changes-requested', flag(s.args, 'body'), s.io.signal);
      s.io.stdout(`${what}: done.`);
    } else if (action === 'merge') {
      const outcome = await s.review.merge(s.api, cr.id, s.io.signal);
      s.io.stdout(
        `${what}: merged into main${outcome.conflicts ? ', with conflicts the server asks you to resolve in the change request' : ''}. The next \`quire sync\` pulls it into the folder.`,
      );
    } else {
      const outcome = await s.review.updateFromMain(s.api, cr.id, s.io.signal);
      s.io.stdout(`${what}: done${outcome.conflicts ? ', with conflicts to resolve in the change request' : ''}.`);
    }
    return EXIT.ok;
  } catch (err) {
    if (s.io.signal.aborted) throw err;
    const line = whyNotDone(what, err, s.api ? null : (s.why ?? 'no API'));
    if (line === null) throw err;
    s.io.stdout(line);
    return EXIT.error;
  }
}

/** Asks or withdraws reviewers: every name is read first, so one that names nobody exactly asks nobody. */
async function reviewers(s: Session, cr: ChangeRequestView): Promise<number> {
  // The organization's members are listed by the first lookup only; the later ones read what it listed.
  let listWith = s.api;
  const findMember = async (who: string) => {
    const member = await s.review.findMember(listWith, cr.spaceId, who, s.io.signal);
    listWith = null;
    return member;
  };
  const adds: { id: string; displayName: string }[] = [];
  for (const who of all(s.args, 'add')) adds.push(await findMember(who));
  const removes: { id: string; displayName: string }[] = [];
  for (const who of all(s.args, 'remove')) {
    const asked = s.review.requestedReviewers(cr.id).map((r) => ({ id: r.id, displayName: r.displayName, email: null }));
    try {
      removes.push(pickPerson(asked, who));
    } catch {
      removes.push(await findMember(who));
    }
  }
  let failed = false;
  for (const member of adds) {
    const code = await queued(s, `Asking ${safeField(member.displayName)} to review #${cr.number}`, cr, {
      kind: 'requestReviewer',
      spaceId: cr.spaceId,
      changeRequestId: cr.id,
      userId: member.id,
      displayName: member.displayName,
    });
    failed ||= code !== EXIT.ok;
  }
  for (const person of removes) {
    const code = await queued(s, `Withdrawing the review request of ${safeField(person.displayName)} on #${cr.number}`, cr, {
      kind: 'removeReviewer',
      spaceId: cr.spaceId,
      changeRequestId: cr.id,
      userId: person.id,
      displayName: person.displayName,
    });
    failed ||= code !== EXIT.ok;
  }
  return failed ? EXIT.error : EXIT.ok;
}

async function edit(s: Session, cr: ChangeRequestView): Promise<number> {
  const subject = subjectFlag(s.args);
  const description = flag(s.args, 'description');
  const blockers = s.review.blockers(cr.id, 'edit');
  if (blockers.length > 0) {
    s.io.stdout(`Editing #${cr.number}: not possible — ${blockers.map((b) => safeField(b.message)).join('; ')}.`);
    return EXIT.error;
  }
  // A subject the writer sets is theirs: Quire never replaces it with one it generates.
  if (subject !== undefined) keepUserSubject(s.mirror, cr.spaceId, cr.id, subject);
  const what =
    subject === undefined
      ? `Editing the description of #${cr.number}`
      : `Renaming #${cr.number} to “${safeField(subject)}”${description !== undefined ? ', with a new description' : ''}`;
  return queued(s, what, cr, {
    kind: 'editChangeRequest',
    spaceId: cr.spaceId,
    changeRequestId: cr.id,
    ...(subject !== undefined ? { subject } : {}),
    ...(description !== undefined ? { description: markdownToDocument(description) } : {}),
  });
}

async function startNew(s: Session): Promise<number> {
  const spaceId = spaceFor(s.mirror, s.args);
  const subject = subjectFlag(s.args) ?? null;
  const title = safeField(s.mirror.catalog.space(spaceId)?.title ?? spaceId);
  let problem: unknown = null;
  const target = await withFolderTurn(s.dir, 'quire cr new', s.io, async () => {
    try {
      return await startChangeRequest(subject !== null ? s.api : null, s.mirror, spaceId, subject);
    } catch (err) {
      // The mirror could not be written: nothing was kept for the next push to open, so nothing is said to be queued.
      if (explainStorageError(err, s.dir) !== err) throw err;
      problem = err;
      return changeRequestTarget(s.mirror, spaceId);
    }
  });
  if (target.state === 'open') {
    s.io.stdout(`Opened change request #${target.number} “${safeField(target.subject ?? '')}”: the next pushes of ${title} go into it.`);
  } else {
    const named = subject !== null ? ` “${safeField(subject)}”` : ' (its subject says what it holds)';
    const why = problem !== null ? errorMessage(problem) : subject !== null && !s.api ? s.why : null;
    const unreachable = problem instanceof NetworkError ? 'the API is not reachable now' : 'not opened on the server now';
    const queuedWords = why ? `queued — ${unreachable} (${safeField(why)}); ` : '';
    s.io.stdout(`New change request for ${title}: ${queuedWords}the next push of ${title} opens it${named}.`);
  }
  return EXIT.ok;
}

/**
 * `cr use`: only into a change request the server confirms is the user's (asked now when the API
 * answers; offline, as far as the mirror knows — a change request of unknown author, or with who
 * the user is not known yet, is not used unless this folder's pushes already went into it).
 */
async function use(s: Session, cr: ChangeRequestView): Promise<number> {
  const refuse = (why: string) => {
    s.io.stdout(`Sending the edits of this space to #${cr.number}: not possible — ${why}.`);
    return EXIT.error;
  };
  const closed = (status: string) => `it is ${status}; choose an open change request, or start one with \`quire cr new\``;
  if (cr.status !== 'open' && cr.status !== 'draft') return refuse(closed(cr.status));
  let whose: 'mine' | 'theirs' | 'unknown';
  let why = s.why ?? 'the API is not reachable now';
  try {
    whose = await s.review.authorship(s.api, cr.id, s.io.signal);
  } catch (err) {
    if (s.io.signal.aborted) throw err;
    why = errorMessage(err, s.dir);
    whose = await s.review.authorship(null, cr.id);
  }
  const current = s.review.changeRequest(cr.id) ?? cr;
  if (current.status !== 'open' && current.status !== 'draft') return refuse(closed(current.status));
  const maker = safeField(current.createdBy?.displayName ?? 'someone else');
  if (whose === 'theirs') return refuse(`it is ${maker}'s; Quire pushes only into your own change requests`);
  const target = changeRequestTarget(s.mirror, cr.spaceId);
  const pushedHere = target.changeRequestId === cr.id || target.setAside.some((p) => p.changeRequestId === cr.id);
  if (whose === 'unknown' && !pushedHere) {
    return refuse(`Quire cannot tell yet that it is yours (${safeField(why)}); run it again when the API is reachable`);
  }
  const chosen = await withFolderTurn(s.dir, 'quire cr use', s.io, async () =>
    pointPushesAt(s.mirror, cr.spaceId, { id: current.id, number: current.number, subject: current.subject, status: current.status }),
  );
  const title = safeField(s.mirror.catalog.space(cr.spaceId)?.title ?? cr.spaceId);
  s.io.stdout(`The edits of ${title} now go into change request #${chosen.number} “${safeField(chosen.subject ?? '')}”.`);
  return EXIT.ok;
}
