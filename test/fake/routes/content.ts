/** Space content: current revision, pages, files, revisions and their semantic changes. */
import { ApiError } from '../errors';
import type { ReusableContentRec, RevisionRec } from '../model';
import { markdownToJsonDocument } from '../markdown';
import { paginate } from '../paging';
import { semanticChanges } from '../semantic-changes';
import type { RefsFormat } from '../page-markdown';
import type { BodyFormat } from '../serialize';
import { NotFoundError } from '../store';
import { pagePath } from '../tree';
import { ok, type Reply, type RouteContext, type RouteTable } from './types';

/** Handlers for the read operations shared by main content, revisions and change requests. */
function contentReads(revisionOf: (ctx: RouteContext) => RevisionRec) {
  return {
    revision: (ctx: RouteContext): Reply => ok(ctx.json.revision(revisionOf(ctx))),
    pages: (ctx: RouteContext): Reply => ok({ pages: ctx.json.pageTree(revisionOf(ctx)) }),
    files: (ctx: RouteContext): Reply => {
      const revision = revisionOf(ctx);
      return ok(paginate([...revision.files.values()], ctx.query, ctx.pageSize, (f) => ctx.json.file(f)));
    },
    file: (ctx: RouteContext): Reply => {
      const revision = revisionOf(ctx);
      const file = revision.files.get(ctx.param('fileId'));
      if (!file) throw new NotFoundError(`file "${ctx.param('fileId')}" does not exist in revision "${revision.id}"`);
      return ok(ctx.json.file(file));
    },
    page: (ctx: RouteContext): Reply => {
      const revision = revisionOf(ctx);
      const pageId = ctx.param('pageId');
      if (!revision.pages.has(pageId)) throw new NotFoundError(`page "${pageId}" does not exist in revision "${revision.id}"`);
      return ok(ctx.json.page(revision, pageId, ctx.query.format as BodyFormat, ctx.query['format.markdown.refs'] as RefsFormat | undefined));
    },
    pageByPath: (ctx: RouteContext): Reply => {
      const revision = revisionOf(ctx);
      const path = ctx.param('pagePath');
      for (const page of revision.pages.values()) {
        if (pagePath(revision, page.id) === path) {
          return ok(ctx.json.page(revision, page.id, ctx.query.format as BodyFormat, ctx.query['format.markdown.refs'] as RefsFormat | undefined));
        }
      }
      throw new NotFoundError(`no page at path "${path}" in revision "${revision.id}"`);
    },
    reusableContent: (ctx: RouteContext): Reply => ok(ctx.json.reusableContent(reusableContentOf(revisionOf(ctx), ctx.param('reusableContentId')))),
  };
}

const main = contentReads(({ store, param }) => store.currentRevision(param('spaceId')));
const byRevision = contentReads(({ store, param }) => store.revision(param('spaceId'), param('revisionId')));
export const changeRequestReads = contentReads(({ store, param }) => store.revisionOf(param('spaceId'), { changeRequest: param('changeRequestId') }));

function reusableContentOf(revision: RevisionRec, id: string): ReusableContentRec {
  const content = revision.reusableContents.get(id);
  if (!content) throw new NotFoundError(`reusable content "${id}" does not exist in revision "${revision.id}"`);
  return content;
}

/** Changes of `after` against `before`, limited like the API (`more` counts the rest). */
export function changesReply(ctx: RouteContext, after: RevisionRec, before: RevisionRec | undefined): Reply {
  const all = semanticChanges(after, before, ctx.json);
  const limit = typeof ctx.query.limit === 'number' && ctx.query.limit > 0 ? Math.floor(ctx.query.limit) : 10;
  const mergedFrom = after.mergedFrom ? ctx.store.changeRequests.get(after.mergedFrom) : undefined;
  return ok({
    changes: all.slice(0, limit),
    ...(all.length > limit ? { more: all.length - limit } : {}),
    ...(mergedFrom ? { mergedFrom: ctx.json.changeRequest(mergedFrom) } : {}),
  });
}

export const contentRoutes: RouteTable = {
  getCurrentRevision: main.revision,
  listPages: main.pages,
  listFiles: main.files,
  getFileById: main.file,
  getPageById: main.page,
  getPageByPath: main.pageByPath,
  getReusableContentById: main.reusableContent,

  getRevisionById: byRevision.revision,
  listPagesInRevisionById: byRevision.pages,
  listFilesInRevisionById: byRevision.files,
  getFileInRevisionById: byRevision.file,
  getPageInRevisionById: byRevision.page,
  getPageInRevisionByPath: byRevision.pageByPath,
  getReusableContentInRevisionById: byRevision.reusableContent,
  getReusableContentDocumentInRevisionById: (ctx) => {
    const revision = ctx.store.revision(ctx.param('spaceId'), ctx.param('revisionId'));
    const content = reusableContentOf(revision, ctx.param('reusableContentId'));
    return ok(content.document ?? markdownToJsonDocument(content.markdown));
  },

  getRevisionSemanticChanges: (ctx) => {
    const revision = ctx.store.revision(ctx.param('spaceId'), ctx.param('revisionId'));
    const parentId = revision.parents[0];
    const parent = parentId !== undefined ? ctx.store.revisions.get(parentId) : undefined;
    if (parentId !== undefined && !parent) throw new ApiError(500, `parent revision "${parentId}" is missing from the fake's store`);
    return changesReply(ctx, revision, parent);
  },
};
