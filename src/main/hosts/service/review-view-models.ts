import type { AttentionReason, ChangeRequestVM, CommentVM, ReplyVM, SiteVM } from '../../../shared/contract';
import type { ChangeRequestView, CommentView, ReplyView, SiteTree } from '../../core/review';
import { person } from './view-models';

/** Lookups read once per answer and shared by every comment in it. */
export interface CommentLookups {
  spaceTitles: Map<string, string>;
  crNumbers: Map<string, number>;
  /** Why the server refused a queued action, by the id of the comment, reply or change request it targeted. */
  failures: Map<string, string>;
  pageTitle(spaceId: string, pageId: string): string | null;
}

export function commentVM(c: CommentView, lookups: CommentLookups): CommentVM {
  const failure = lookups.failures.get(c.id);
  return {
    id: c.id,
    spaceId: c.spaceId,
    spaceTitle: lookups.spaceTitles.get(c.spaceId) ?? c.spaceId,
    changeRequestId: c.changeRequestId,
    changeRequestNumber: c.changeRequestId ? (lookups.crNumbers.get(c.changeRequestId) ?? null) : null,
    pageId: c.pageId,
    pageTitle: c.pageId ? lookups.pageTitle(c.spaceId, c.pageId) : null,
    author: person(c.author),
    postedAt: c.postedAt,
    markdown: c.body,
    status: c.status,
    replyCount: c.replyCount,
    reactions: c.reactions.map((r) => ({ emoji: r.emoji, count: r.count, mine: r.mine })),
    pending: c.pending,
    ...(failure ? { failure } : {}),
  };
}

export function replyVM(r: ReplyView, failures: Map<string, string>): ReplyVM {
  const failure = failures.get(r.id);
  return {
    id: r.id,
    author: person(r.author),
    postedAt: r.postedAt,
    markdown: r.body,
    reactions: r.reactions.map((x) => ({ emoji: x.emoji, count: x.count, mine: x.mine })),
    pending: r.pending,
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
    spaceId: cr.spaceId,
    spaceTitle: spaceTitles.get(cr.spaceId) ?? cr.spaceId,
    id: cr.id,
    number: cr.number,
    subject: cr.subject,
    status: cr.status,
    outdated: cr.outdated,
    comments: cr.comments,
    createdBy: person(cr.author),
    updatedAt: cr.updatedAt ?? cr.createdAt ?? '',
    reasons,
    pending: cr.pending,
    ...(failure ? { failure } : {}),
  };
}

export function siteVM(s: SiteTree, orgTitles: Map<string, string>): SiteVM {
  return { ...s, organizationTitle: orgTitles.get(s.organizationId) ?? null };
}
