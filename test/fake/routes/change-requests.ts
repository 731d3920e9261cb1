/** Change requests: listing, lifecycle (update, merge) and their content, incl. the batch endpoint. */
import type { ContentChange } from '../batch';
import type { ChangeRequestRec } from '../model';
import { paginate } from '../paging';
import { changeRequestReads, changesReply } from './content';
import { ApiError } from '../errors';
import { created, ok, type RouteTable } from './types';

export const changeRequestRoutes: RouteTable = {
  listChangeRequestsForSpace: ({ store, json, param, query, pageSize }) => {
    const spaceId = store.space(param('spaceId')).id;
    const list = filtered(store.changeRequestsOf(spaceId), query).sort((a, b) => b.number - a.number);
    return ok(paginate(list, query, pageSize, (cr) => json.changeRequest(cr)));
  },

  /**
   * Every space of the organization; `status` is an array (the document's default style, one
   * `status=` per value, as the official client sends it; defaults to ["open"]). Ordered by
   * `orderBy` (default `updatedAt`), newest first. Triage findings, site topics and contributors
   * are not modelled: `finding` and `contributor` change nothing (as `contributor` on the space
   * listing), and `site`/`topic`/`styleguideRun` select nothing.
   */
  listChangeRequestsForOrganization: ({ store, json, param, query, pageSize }) => {
    const org = store.org(param('organizationId'));
    const inOrg = [...store.spaces.values()].filter((s) => s.orgId === org.id && (query.space === undefined || s.id === query.space));
    const unmodelled = query.site !== undefined || query.topic !== undefined || query.styleguideRun !== undefined;
    const key = query.orderBy === 'createdAt' ? 'createdAt' : 'updatedAt';
    const list = unmodelled
      ? []
      : filtered(
          inOrg.flatMap((s) => store.changeRequestsOf(s.id)),
          query,
        ).sort((a, b) => b[key].localeCompare(a[key]) || b.id.localeCompare(a.id));
    return ok(paginate(list, query, pageSize, (cr) => json.changeRequest(cr)));
  },

  createChangeRequest: ({ store, json, param, body }) => {
    const cr = store.addChangeRequest(param('spaceId'), { subject: typeof body?.subject === 'string' ? body.subject : '' });
    return { ...created(json.changeRequest(cr)), headers: { Location: json.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`) } };
  },

  getChangeRequestById: ({ store, json, param }) => ok(json.changeRequest(store.changeRequest(param('spaceId'), param('changeRequestId')))),

  updateChangeRequestById: ({ store, json, param, body, headers }) => {
    const cr = store.updateChangeRequestFields(param('spaceId'), param('changeRequestId'), {
      subject: body.subject,
      status: body.status,
      description: body.description,
    });
    if (headers.prefer === 'return=minimal') return { status: 204, headers: { 'Preference-Applied': 'return=minimal' } };
    return ok(json.changeRequest(cr));
  },

  mergeChangeRequest: ({ store, param }) => {
    const cr = store.changeRequest(param('spaceId'), param('changeRequestId'));
    if (store.review.permission(cr.spaceId, 'merge') === false) throw new ApiError(403, 'You do not have permission to merge change requests in this space.');
    if (cr.status === 'draft') throw new ApiError(400, `Change request #${cr.number} is a draft: mark it as ready for review before merging it.`);
    const blockers = cr.status === 'open' ? store.review.mergeBlockers(cr, store.currentUser.id) : [];
    if (blockers.length > 0) throw new ApiError(400, `The merge rules of this space are not met: ${blockers.join('; ')}.`);
    const revision = store.mergeChangeRequest(param('spaceId'), param('changeRequestId'));
    return ok({ revision: revision.id, result: 'merge' });
  },

  updateChangeRequest: ({ store, param }) => {
    const conflicts = store.updateConflicts(param('spaceId'), param('changeRequestId'));
    const revision = store.updateChangeRequest(param('spaceId'), param('changeRequestId'));
    return ok({ revision: revision.id, result: conflicts.length > 0 ? 'conflicts' : 'update' });
  },

  getRevisionOfChangeRequestById: changeRequestReads.revision,
  listPagesInChangeRequest: changeRequestReads.pages,
  listFilesInChangeRequestById: changeRequestReads.files,
  getFileInChangeRequestById: changeRequestReads.file,
  getPageInChangeRequestById: changeRequestReads.page,
  getPageInChangeRequestByPath: changeRequestReads.pageByPath,
  getReusableContentInChangeRequestById: changeRequestReads.reusableContent,

  updateChangeRequestContent: ({ store, json, param, query, body, blobForUrl }) => {
    const outcome = store.applyContentChanges(param('spaceId'), param('changeRequestId'), body.changes as ContentChange[], blobForUrl);
    const cr = outcome.changeRequest;
    if (query.compat !== false) return ok(json.changeRequest(cr));
    const pageRef = (pageId: string) => ({
      object: 'page',
      id: pageId,
      urls: { location: json.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}/content/page/${pageId}`) },
    });
    return ok({
      changeRequest: json.changeRequest(cr),
      changes: outcome.changes.map((c) =>
        c.object === 'deleted_page'
          ? { object: c.object, page: c.pageId }
          : { object: c.object, ...(c.ref !== undefined ? { ref: c.ref } : {}), page: pageRef(c.pageId) },
      ),
      ...(outcome.insertedFiles.length > 0 ? { insertedFiles: outcome.insertedFiles.map((f) => json.file(f)) } : {}),
    });
  },

  getChangeRequestChanges: (ctx) => {
    const { store, param } = ctx;
    const cr = store.changeRequest(param('spaceId'), param('changeRequestId'));
    const after = store.revision(cr.spaceId, cr.revisionId);
    const before = store.revision(cr.spaceId, store.baseRevisionId(cr));
    return changesReply(ctx, after, before);
  },
};

/** The filters both listings share: status (one, or an array for the organization's), creator, requested reviewer. */
function filtered(list: ChangeRequestRec[], query: Record<string, unknown>): ChangeRequestRec[] {
  const statuses = Array.isArray(query.status) ? (query.status as string[]) : [query.status];
  return list
    .filter((cr) => statuses.includes(cr.status))
    .filter((cr) => query.creator === undefined || cr.createdBy === query.creator)
    .filter((cr) => query.requestedReviewer === undefined || (cr.requestedReviewers ?? []).includes(String(query.requestedReviewer)));
}
