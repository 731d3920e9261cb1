/**
 * The Review view's requests beyond reading and replying: the inbox and its read marks, review
 * state and "refresh now", comments started, edited and deleted, reviews and reviewers, merge
 * and update from main (the server's answer or an error saying why — never queued), and which
 * change request receives each space's edits (`cr new` / `cr use` of the app).
 */
import { QuireError, type ActOutcomeVM, type InboxItemVM, type ReviewStateVM, type SpaceTargetVM } from '../../../shared/contract';
import { oneLineSubject, subjectProblem } from '../../../shared/subject';
import { NetworkError } from '../../core/api';
import { ActionNotPossibleError, type ActionInput, markdownToDocument, NotInInboxError, ServerRefusalError, UnknownPersonError } from '../../core/review';
import { changeRequestTarget, pointPushesAt, startChangeRequest, type ChangeRequestTarget } from '../../core/sync';
import { describeError, toQuireError } from './errors';
import type { ReviewAdapter } from './review-adapter';
import { lineOf } from './review-lines';
import { changeRequestVM, commentVM, replyVM, reviewVM } from './review-view-models';
import { needApi, type ServiceState } from './state';
import type { SyncRunner } from './sync-runner';
import type { HandlersFor } from './types';
import { person } from './view-models';

type LifecycleRequest =
  | 'review.inbox'
  | 'review.markRead'
  | 'review.pin'
  | 'review.snooze'
  | 'review.dismiss'
  | 'review.state'
  | 'review.refresh'
  | 'review.newComment'
  | 'review.editComment'
  | 'review.deleteComment'
  | 'review.submitReview'
  | 'review.requestReviewer'
  | 'review.removeReviewer'
  | 'review.members'
  | 'review.setDescription'
  | 'review.merge'
  | 'review.updateFromMain'
  | 'review.targets'
  | 'review.startChangeRequest'
  | 'review.useChangeRequest';

/** Why an action that needs the server's answer did not happen, for the view. */
export function notDone(e: unknown, doing: string): QuireError {
  if (e instanceof ActionNotPossibleError) {
    return new QuireError(e.blockers.some((b) => b.code === 'no-permission') ? 'forbidden' : 'invalid-request', `Cannot ${doing}: ${e.message}.`);
  }
  if (e instanceof ServerRefusalError) {
    const code = e.status === 403 ? 'forbidden' : e.status === 404 ? 'not-found' : 'invalid-request';
    return new QuireError(code, `The server refused to ${doing}: ${e.serverMessage}`);
  }
  if (e instanceof NetworkError) {
    return new QuireError(
      'offline',
      `To ${doing} needs the server's answer, and the API cannot be reached now. Nothing was queued: try again when you are online.`,
    );
  }
  if (e instanceof UnknownPersonError) return new QuireError('invalid-request', e.message);
  return toQuireError(e, doing);
}

/** A pin or snooze on an item gone from the inbox meanwhile: said, not an internal error. */
function inboxMark(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (e instanceof NotInInboxError) throw new QuireError('not-found', `That item left the inbox: ${e.message}.`);
    throw e;
  }
}

export function reviewLifecycleHandlers(state: ServiceState, runner: SyncRunner): HandlersFor<LifecycleRequest> {
  const adapter = (): ReviewAdapter => {
    needApi(state);
    if (!state.review) throw new QuireError('unsupported', 'Review is not available in this build of Quire.');
    return state.review;
  };
  const online = () => state.status.get().state !== 'offline';
  const changed = () => {
    void state.status.refresh(); // the pending count is part of the sync state
    state.events.changed('review');
  };
  const act = async (input: ActionInput): Promise<ActOutcomeVM> => {
    const outcome = await adapter().actNow(input);
    changed();
    return outcome;
  };
  /** Sends, and turns what stops it into an error the view can show. */
  const withServer = async <T>(doing: string, fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (e) {
      throw notDone(e, doing);
    } finally {
      changed();
    }
  };
  const changeRequest = (spaceId: string, id: string) => {
    const cr = adapter().core.review.changeRequest(id);
    if (!cr || cr.spaceId !== spaceId) throw new QuireError('not-found', 'That change request is not in the mirror. Refresh review data, then try again.');
    return cr;
  };
  const targetVM = (t: ChangeRequestTarget): SpaceTargetVM => ({ ...t, spaceTitle: state.mirror.catalog.space(t.spaceId)?.title ?? t.spaceId });
  const reviewState = (): ReviewStateVM => {
    const a = adapter();
    return {
      refreshedAt: a.core.review.refreshedAt(),
      online: a.reachedServer() && online(),
      pendingActions: a.pendingCount(),
      refused: [...a.core.review.failingActions(), ...a.core.review.refusedActions()].map((r) => ({
        actionId: r.id,
        kind: r.kind,
        // A reply is about its comment (its own id is one only this mirror knows until it is posted).
        targetId: (r.kind === 'reply' ? null : r.replyId) ?? r.commentId ?? r.changeRequestId,
        message: r.message ?? 'refused by the server',
        at: r.finishedAt ?? r.sendingAt ?? r.createdAt,
        ...(r.retryAt ? { retryAt: r.retryAt } : {}),
      })),
    };
  };

  return {
    'review.inbox': () => {
      const a = adapter();
      const lookups = a.lookups();
      return a.core.review.triage().map(
        (i): InboxItemVM => ({
          key: i.key,
          group: i.group,
          waitingOn: i.waitingOn,
          pinned: i.pinned,
          snoozed: i.snoozed,
          reasons: i.reasons,
          unread: i.unread,
          activityAt: i.activityAt,
          by: person(i.by),
          spaceId: i.spaceId,
          spaceTitle: lookups.spaceTitles.get(i.spaceId) ?? i.spaceId,
          changeRequest: i.changeRequest ? changeRequestVM(i.changeRequest, [], lookups.spaceTitles, lookups.failures) : null,
          thread: i.comment ? { ...commentVM(i.comment, lookups), replies: i.replies.map((r) => replyVM(r, lookups.failures)) } : null,
        }),
      );
    },
    'review.pin': ({ key, pinned }) => {
      inboxMark(() => adapter().core.review.pin(key, pinned));
      state.events.changed('review');
    },
    'review.snooze': ({ key, until, off }) => {
      if (until !== undefined && !(Date.parse(until) > Date.now())) throw new QuireError('invalid-request', 'Choose a date in the future to snooze it until.');
      inboxMark(() => adapter().core.review.snooze(key, until ?? null, off ?? false));
      state.events.changed('review');
    },
    'review.markRead': ({ keys }) => {
      adapter().core.review.markRead(keys ?? 'all');
      state.events.changed('review');
    },
    'review.dismiss': ({ actionId }) => {
      const a = adapter();
      if (!a.core.mirror.reviewActions.action(actionId)) throw new QuireError('not-found', 'That action is not in the queue any more.');
      try {
        a.core.review.dismiss(actionId);
      } catch (e) {
        throw new QuireError('busy', `Cannot put it away: ${describeError(e)}`);
      } finally {
        changed();
      }
    },
    'review.state': () => reviewState(),
    'review.refresh': async () => {
      await adapter().refreshNow(state.abort.signal);
      state.events.changed('review', 'sites');
      return reviewState();
    },
    'review.newComment': async (p) =>
      act({
        kind: 'postComment',
        spaceId: p.spaceId,
        changeRequestId: p.changeRequestId ?? null,
        pageId: p.pageId ?? null,
        body: p.markdown,
        // On a line: the block holding it (review-lines.ts).
        ...(await lineOf(adapter(), online(), p)),
      }),
    'review.editComment': (p) =>
      act(
        p.replyId
          ? { kind: 'editReply', commentId: p.commentId, replyId: p.replyId, body: p.markdown }
          : { kind: 'editComment', commentId: p.commentId, body: p.markdown },
      ),
    'review.deleteComment': (p) =>
      act(p.replyId ? { kind: 'deleteReply', commentId: p.commentId, replyId: p.replyId } : { kind: 'deleteComment', commentId: p.commentId }),
    'review.submitReview': (p) => {
      const a = adapter();
      changeRequest(p.spaceId, p.changeRequestId);
      const doing = p.status === 'approved' ? 'approve the change request' : 'request changes';
      return withServer(doing, async () => reviewVM(await a.core.review.review(a.core.api, p.changeRequestId, p.status, p.markdown, state.abort.signal)));
    },
    'review.requestReviewer': async (p) => {
      const a = adapter();
      changeRequest(p.spaceId, p.changeRequestId);
      let member: { id: string; displayName: string };
      try {
        member = await a.core.review.findMember(online() ? a.core.api : null, p.spaceId, p.user, state.abort.signal);
      } catch (e) {
        throw notDone(e, 'find that member');
      }
      return act({ kind: 'requestReviewer', spaceId: p.spaceId, changeRequestId: p.changeRequestId, userId: member.id, displayName: member.displayName });
    },
    'review.removeReviewer': (p) => {
      const a = adapter();
      changeRequest(p.spaceId, p.changeRequestId);
      const asked = a.core.review.requestedReviewers(p.changeRequestId).find((r) => r.id === p.userId);
      return act({
        kind: 'removeReviewer',
        spaceId: p.spaceId,
        changeRequestId: p.changeRequestId,
        userId: p.userId,
        ...(asked ? { displayName: asked.displayName } : {}),
      });
    },
    'review.members': async ({ spaceId }) => {
      const a = adapter();
      const members = await a.core.review.members(online() ? a.core.api : null, spaceId, state.abort.signal);
      return members.map((m) => ({ id: m.id, displayName: m.displayName, ...(m.email ? { email: m.email } : {}) }));
    },
    'review.setDescription': (p) => {
      changeRequest(p.spaceId, p.changeRequestId);
      return act({ kind: 'editChangeRequest', spaceId: p.spaceId, changeRequestId: p.changeRequestId, description: markdownToDocument(p.markdown) });
    },
    'review.merge': async (p) => {
      const a = adapter();
      const cr = changeRequest(p.spaceId, p.changeRequestId);
      await withServer('merge the change request', async () => {
        // Its pages as they are now, checked in the folder: a merge goes past what holds it here only when asked to.
        await a.core.review.readChangeRequest(a.core.api, cr.id, state.abort.signal);
        await a.core.review.loadChangeRequestDiff(a.core.api, cr.id);
        const holds = p.force ? [] : a.mergeHolds(cr.id);
        if (holds.length > 0) {
          throw new QuireError(
            'invalid-request',
            `Merging #${cr.number} is held back: ${holds.map((h) => h.message).join('; ')}. Choose “Merge anyway” to go past these checks of your folder (the server’s merge rules still apply).`,
          );
        }
        return a.core.review.merge(a.core.api, cr.id, state.abort.signal);
      });
    },
    'review.updateFromMain': async (p) => {
      const a = adapter();
      changeRequest(p.spaceId, p.changeRequestId);
      await withServer('update the change request from main', () => a.core.review.updateFromMain(a.core.api, p.changeRequestId, state.abort.signal));
    },
    'review.targets': () => state.mirror.catalog.selectedSpaces().map((s) => targetVM(changeRequestTarget(state.mirror, s.id))),
    'review.startChangeRequest': async ({ spaceId, subject }) => {
      const a = adapter();
      if (!state.mirror.catalog.space(spaceId)) throw new QuireError('not-found', 'That space is not in the mirror any more. Refresh the list of spaces.');
      const problem = subject === undefined ? null : subjectProblem(oneLineSubject(subject));
      if (problem) throw new QuireError('invalid-request', `The subject ${problem}.`);
      const target = await runner.holdingFolder('starting a change request', async () => {
        try {
          return await startChangeRequest(online() && subject !== undefined ? a.core.api : null, state.mirror, spaceId, subject ?? null);
        } catch (e) {
          // Unreachable: the next push opens it (or finds the one that may have been created).
          state.log(`new change request: ${describeError(e)}`);
          return changeRequestTarget(state.mirror, spaceId);
        }
      });
      state.events.changed('review', 'log');
      return targetVM(target);
    },
    'review.useChangeRequest': async (p) => {
      const a = adapter();
      changeRequest(p.spaceId, p.changeRequestId);
      // Only into one the server confirms is the user's: asked now when online, else as far as the mirror knows.
      let whose: 'mine' | 'theirs' | 'unknown';
      try {
        whose = await a.core.review.authorship(online() ? a.core.api : null, p.changeRequestId, state.abort.signal);
      } catch (e) {
        if (state.abort.signal.aborted) throw e;
        whose = await a.core.review.authorship(null, p.changeRequestId);
      }
      const cr = changeRequest(p.spaceId, p.changeRequestId);
      if (cr.status !== 'open' && cr.status !== 'draft')
        throw new QuireError('invalid-request', `Change request #${cr.number} is ${cr.status}: choose an open one, or start a new one.`);
      if (whose === 'theirs')
        throw new QuireError(
          'forbidden',
          `Change request #${cr.number} is ${cr.createdBy?.displayName ?? 'someone else'}'s: Quire pushes only into your own change requests.`,
        );
      const now = changeRequestTarget(state.mirror, cr.spaceId);
      if (whose === 'unknown' && now.changeRequestId !== cr.id && !now.setAside.some((x) => x.changeRequestId === cr.id))
        throw new QuireError('offline', `Quire cannot tell yet that change request #${cr.number} is yours: try again when you are online.`);
      const target = await runner.holdingFolder('choosing a change request', async () =>
        pointPushesAt(state.mirror, cr.spaceId, { id: cr.id, number: cr.number, subject: cr.subject, status: cr.status }),
      );
      state.events.changed('review', 'log');
      return targetVM(target);
    },
  };
}
