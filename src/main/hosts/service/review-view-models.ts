import type {
  AttentionReason,
  ChangeRequestVM,
  CommentVM,
  MergeHoldVM,
  ReactionVM,
  ReplyVM,
  RequestedReviewerVM,
  ReviewVM,
  SiteVM,
} from '../../../shared/contract';
import { plural } from '../../../shared/plural';
import type { MergeHold } from '../../core/check';
import {
  changeRequestSummary,
  type ChangeRequestView,
  type CommentView,
  type ReplyView,
  type RequestedReviewerView,
  type ReviewView,
  type SiteTree,
  suggestionOf,
  type ThreadPlace,
} from '../../core/review';
import { person } from './view-models';

/** Lookups read once per answer and shared by every comment in it. */
export interface CommentLookups {
  spaceTitles: Map<string, string>;
  crNumbers: Map<string, number>;
  /** Why the server refused a queued action, by the id of the comment, reply or change request it targeted. */
  failures: Map<string, string>;
  pageTitle(spaceId: string, pageId: string): string | null;
  /** The page's file in its space folder, when the folder has it. */
  pagePath(spaceId: string, pageId: string): string | null;
  /** Comments kept in the user's pending reviews (not sent until the review is finished). */
  kept?: ReadonlySet<string>;
  /** Where a comment on a line of a change request shows now (core/review/anchors.ts); null for one not on a line. */
  place?(c: CommentView): ThreadPlace | null;
}

const reactionVMs = (list: CommentView['reactions']): ReactionVM[] =>
  list.map((r) => ({ emoji: r.emoji, count: r.count, mine: r.mine, users: r.users.map((u) => ({ id: u.id, displayName: u.displayName })) }));

export function commentVM(c: CommentView, lookups: CommentLookups): CommentVM {
  const failure = lookups.failures.get(c.id);
  const place = lookups.place?.(c) ?? null;
  const suggestion = suggestionOf(c.body);
  return {
    id: c.id,
    spaceId: c.spaceId,
    spaceTitle: lookups.spaceTitles.get(c.spaceId) ?? c.spaceId,
    changeRequestId: c.changeRequestId,
    changeRequestNumber: c.changeRequestId ? (lookups.crNumbers.get(c.changeRequestId) ?? null) : null,
    pageId: c.pageId,
    pageTitle: c.pageId ? lookups.pageTitle(c.spaceId, c.pageId) : null,
    pagePath: c.pageId ? lookups.pagePath(c.spaceId, c.pageId) : null,
    author: person(c.author),
    postedAt: c.postedAt,
    markdown: c.body,
    status: c.status,
    replyCount: c.replyCount,
    reactions: reactionVMs(c.reactions),
    pending: c.pending,
    mine: c.mine,
    ...(lookups.kept?.has(c.id) ? { inPendingReview: true } : {}),
    ...(failure ? { failure } : {}),
    ...(place ? { line: place.line, outdated: place.outdated } : {}),
    ...(suggestion ? { suggestion: { lines: suggestion, replaces: place?.madeAt?.lines ?? null } } : {}),
  };
}

/** A merge hold in the app's words. */
export function mergeHoldVM(h: MergeHold): MergeHoldVM {
  const page = `“${h.title}” (${h.path})`;
  const first = h.problems[0];
  const message =
    h.code === 'conflict'
      ? `${page} has an open conflict in your folder: resolve it first`
      : `${page} has ${plural(h.problems.length, 'error')} the check finds${first ? ` (${first.line !== null ? `line ${first.line}: ` : ''}${first.message})` : ''}: fix ${h.problems.length === 1 ? 'it' : 'them'} first`;
  return { code: h.code, pageId: h.pageId, title: h.title, path: h.path, message };
}

export function replyVM(r: ReplyView, failures: Map<string, string>): ReplyVM {
  const failure = failures.get(r.id);
  return {
    id: r.id,
    author: person(r.author),
    postedAt: r.postedAt,
    markdown: r.body,
    reactions: reactionVMs(r.reactions),
    pending: r.pending,
    mine: r.mine,
    ...(failure ? { failure } : {}),
  };
}

export function changeRequestVM(
  cr: ChangeRequestView,
  reasons: AttentionReason[],
  spaceTitles: Map<string, string>,
  failures: Map<string, string>,
): ChangeRequestVM {
  const failure = failures.get(cr.id);
  return {
    ...changeRequestSummary(cr),
    spaceTitle: spaceTitles.get(cr.spaceId) ?? cr.spaceId,
    comments: cr.comments,
    createdBy: person(cr.createdBy),
    updatedAt: cr.updatedAt ?? cr.createdAt ?? '',
    reasons,
    pending: cr.pending,
    ...(failure ? { failure } : {}),
  };
}

export function reviewVM(r: ReviewView): ReviewVM {
  return {
    id: r.id,
    reviewer: { id: r.reviewer.id, displayName: r.reviewer.displayName },
    status: r.status,
    outdated: r.outdated,
    comment: r.comment,
    at: r.at,
  };
}

export function requestedReviewerVM(r: RequestedReviewerView): RequestedReviewerVM {
  return { id: r.id, displayName: r.displayName, requestedBy: person(r.requestedBy), pending: r.pending };
}

export function siteVM(s: SiteTree, orgTitles: Map<string, string>): SiteVM {
  return { ...s, organizationTitle: orgTitles.get(s.organizationId) ?? null };
}
