/** Reviews of a change request and its requested reviewers (the merge rules are checked by the merge route). */
import { documentInputToMarkdown, type DocumentInput } from '../batch';
import { paginate } from '../paging';
import type { BodyFormat } from '../serialize';
import { created, ok, type RouteTable } from './types';

export const reviewRoutes: RouteTable = {
  getReviewsByChangeRequestId: ({ store, json, param, query, pageSize }) => {
    const cr = store.changeRequest(param('spaceId'), param('changeRequestId'));
    const list = store.review.reviewsOf(cr.id).filter((r) => query.outdated === undefined || r.outdated === query.outdated);
    return ok(paginate(list, query, pageSize, (r) => json.review(r, query.format as BodyFormat)));
  },

  submitChangeRequestReview: ({ store, json, param, body }) => {
    const comment = body.comment !== undefined ? documentInputToMarkdown(body.comment as DocumentInput) : undefined;
    const review = store.review.submit(param('spaceId'), param('changeRequestId'), { status: body.status, ...(comment !== undefined ? { comment } : {}) });
    return {
      ...created(json.review(review, undefined)),
      headers: { Location: json.api(`/spaces/${review.spaceId}/change-requests/${review.changeRequestId}/reviews/${review.id}`) },
    };
  },

  getRequestedReviewersByChangeRequestId: ({ store, json, param, query, pageSize }) => {
    const cr = store.changeRequest(param('spaceId'), param('changeRequestId'));
    return ok(paginate(store.review.requestedOf(cr), query, pageSize, (r) => json.requestedReviewer(r.userId, r.request)));
  },

  requestReviewersForChangeRequest: ({ store, json, param, body }) => {
    const spaceId = param('spaceId');
    const cr = store.changeRequest(spaceId, param('changeRequestId'));
    const made = store.review.request(spaceId, cr.id, body.users as string[]);
    if (body.subject !== undefined || body.description !== undefined) {
      store.updateChangeRequestFields(spaceId, cr.id, { subject: body.subject, description: body.description });
    }
    return ok({ users: made.map((r) => json.requestedReviewer(r.userId, r.request)) });
  },

  removeRequestedReviewerFromChangeRequest: ({ store, param }) =>
    store.review.remove(param('spaceId'), param('changeRequestId'), param('userId')) ? { status: 205 } : { status: 204 },
};
