/**
 * The `quire cr` actions. Reviewers, archive, reopen and edit act at once when the API answers
 * and otherwise queue (shown as pending, sent by the next sync); merge, update and a review
 * need the server's answer, so offline they say so and do nothing. `new` and `use` choose
 * which change request a space's pushes go to (they hold the folder's turn, as a sync does).
 */
import type { ApiClient } from '../../core/api';
import type { Mirror } from '../../core/mirror';
import { type ActionInput, type ChangeRequestView, markdownToDocument, pickPerson, ReviewService } from '../../core/review';
import { changeRequestTarget, keepUserSubject, startChangeRequest, pointPushesAt } from '../../core/sync';
import { all, dirFlag, flag, has, UsageError, type ParsedArgs } from './args';
import { withFolderTurn } from './folder-turn';
import { EXIT, type CliIo } from './io';
import { changeRequestFor, describeOutcome, parseNumber, spaceFor, tryApi, whyNotDone } from './review-lookup';
import { safeField } from './terminal-text';

export const ACTIONS = ['review', 'reviewers', 'merge', 'update', 'archive', 'reopen', 'edit', 'new', 'use'] as const;
type Action = (typeof ACTIONS)[number];

export interface CrContext {
  openMirror(dir: string): Mirror;
  apiFor(mirror: Mirror): Promise<ApiClient>;
}

interface Session {
  dir: string;
  mirror: Mirror;
  review: ReviewService;
  api: ApiClient | null;
  why: string | null;
  args: ParsedArgs;
  io: CliIo;
}

export async function act(action: Action, rest: string[], args: ParsedArgs, io: CliIo, ctx: CrContext): Promise<number> {
  if (action === 'new' ? rest.length > 0 : rest.length !== 1)
    throw new UsageError(action === 'new' ? `unexpected argument "${rest[0]}"` : `quire cr ${action} needs one change request number`);
  const n = action === 'new' ? 0 : parseNumber(rest[0]);
  checkFlags(action, args);
  const dir = dirFlag(args);
  const mirror = ctx.openMirror(dir);
  try {
    const { api, why } = await tryApi(ctx, mirror);
    const s: Session = { dir, mirror, review: new ReviewService(mirror), api, why, args, io };
    if (action === 'new') return await startNew(s);
    const cr = await changeRequestFor(s.review, mirror, args, n, api, io.signal);
    switch (action) {
      case 'review':
      case 'merge':
      case 'update':
        return await needsServer(s, action, cr);
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
  } finally {
    mirror.close();
  }
}

/** Usage errors before anything is opened or sent. */
function checkFlags(action: Action, args: ParsedArgs): void {
  if (action === 'review' && has(args, 'approve') === has(args, 'request-changes'))
    throw new UsageError('quire cr review needs --approve or --request-changes (one of them)');
  if (action === 'reviewers' && all(args, 'add').length + all(args, 'remove').length === 0)
    throw new UsageError('quire cr reviewers needs --add <user> or --remove <user>');
  if (action === 'edit' && flag(args, 'subject') === undefined && flag(args, 'description') === undefined)
    throw new UsageError('quire cr edit needs --subject <s>, --description <markdown>, or both');
  const subject = flag(args, 'subject');
  if (subject !== undefined && (subject.trim() === '' || subject.length > 100))
    throw new UsageError(`--subject must be 1 to 100 characters; got ${subject.length}.`, { usage: false });
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

async function reviewers(s: Session, cr: ChangeRequestView): Promise<number> {
  let failed = false;
  // The organization's members are listed by the first lookup only; the later ones read what it listed.
  let listWith = s.api;
  const findMember = async (who: string) => {
    const member = await s.review.findMember(listWith, cr.spaceId, who, s.io.signal);
    listWith = null;
    return member;
  };
  for (const who of all(s.args, 'add')) {
    const member = await findMember(who);
    const code = await queued(s, `Asking ${safeField(member.displayName)} to review #${cr.number}`, cr, {
      kind: 'requestReviewer',
      spaceId: cr.spaceId,
      changeRequestId: cr.id,
      userId: member.id,
      displayName: member.displayName,
    });
    failed ||= code !== EXIT.ok;
  }
  for (const who of all(s.args, 'remove')) {
    const asked = s.review.requestedReviewers(cr.id).map((r) => ({ id: r.id, displayName: r.displayName, email: null }));
    let person: { id: string; displayName: string };
    try {
      person = pickPerson(asked, who);
    } catch {
      person = await findMember(who);
    }
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
  const subject = flag(s.args, 'subject');
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
  const subject = flag(s.args, 'subject') ?? null;
  const title = safeField(s.mirror.catalog.space(spaceId)?.title ?? spaceId);
  let problem: string | null = null;
  const target = await withFolderTurn(s.dir, 'quire cr new', s.io, async () => {
    try {
      return await startChangeRequest(subject !== null ? s.api : null, s.mirror, spaceId, subject);
    } catch (err) {
      problem = (err as Error).message;
      return changeRequestTarget(s.mirror, spaceId);
    }
  });
  if (target.state === 'open') {
    s.io.stdout(`Opened change request #${target.number} “${safeField(target.subject ?? '')}”: the next pushes of ${title} go into it.`);
  } else {
    const named = subject !== null ? ` “${safeField(subject)}”` : ' (its subject says what it holds)';
    const why = problem ?? (subject !== null && !s.api ? s.why : null);
    const queuedWords = why ? `queued — the API is not reachable now (${safeField(why)}); ` : '';
    s.io.stdout(`New change request for ${title}: ${queuedWords}the next push of ${title} opens it${named}.`);
  }
  return EXIT.ok;
}

async function use(s: Session, cr: ChangeRequestView): Promise<number> {
  const me = s.review.me();
  const refuse = (why: string) => {
    s.io.stdout(`Sending the edits of this space to #${cr.number}: not possible — ${why}.`);
    return EXIT.error;
  };
  if (cr.status !== 'open' && cr.status !== 'draft') return refuse(`it is ${cr.status}; choose an open change request, or start one with \`quire cr new\``);
  if (me && cr.author && cr.author.id !== me.id) return refuse(`it is ${safeField(cr.author.displayName)}'s; Quire pushes only into your own change requests`);
  const target = await withFolderTurn(s.dir, 'quire cr use', s.io, async () =>
    pointPushesAt(s.mirror, cr.spaceId, { id: cr.id, number: cr.number, subject: cr.subject, status: cr.status }),
  );
  const title = safeField(s.mirror.catalog.space(cr.spaceId)?.title ?? cr.spaceId);
  s.io.stdout(`The edits of ${title} now go into change request #${target.number} “${safeField(target.subject ?? '')}”.`);
  return EXIT.ok;
}
