/**
 * Comments on a line of a page in a change request. A line is sent as the block holding it (the
 * comment's `node`, blocks.ts); where a comment on a block was made is read once and kept (the
 * block's lines and fingerprint at the comment's revision: the mirror's comment anchors), so
 * each view can show the thread at the block's line now, and say it is outdated when the
 * block changed or went away since, as GitHub does.
 *
 *   const target = await lineTarget(api, mirror, crId, pageId, 12);  // { nodeId, revisionId, … }
 *   await ensureAnchors(api, mirror, crId);                           // reads where new threads were made
 *   threadPlaces(mirror, crId);                                       // each thread's line now, and whether outdated
 */
import type { ApiClient } from '../api';
import type { CommentAnchor, Mirror } from '../mirror';
import { LinkResolver } from '../sync';
import { fileMeta } from '../sync';
import { type BlockSpan, blockFingerprint, blockForLine, blockSpans, findBlock } from './blocks';
import { ensureDocument, pageDocumentAt, pageMarkdownAt } from './diff-fetch';
import { composePageFile, diffRevisions, type HeadFileStores, RevisionFiles } from './page-files';

/** Why a line cannot take a comment (said to the user as it is): the line itself, or what Quire does not have without the server. */
export class LineCommentError extends Error {
  override name = 'LineCommentError';
  constructor(
    message: string,
    readonly reason: 'line' | 'needs-server' = 'line',
  ) {
    super(message);
  }
}

export interface LineTarget {
  nodeId: string;
  /** The change request's revision the line was read at. */
  revisionId: string;
  /** The block's lines in the file. */
  start: number;
  end: number;
  path: string | null;
}

/** A page of the change request as its file and document at its current revision; null parts are not in the mirror (yet). */
interface HeadPage {
  revisionId: string;
  path: string | null;
  text: string | null;
  document: unknown;
}

/** The change request's current revision as files, from the mirror; null when its content was never fetched. */
function headFiles(mirror: HeadFileStores, changeRequestId: string): RevisionFiles | null {
  const revisions = diffRevisions(mirror, changeRequestId);
  return revisions ? new RevisionFiles(mirror, revisions.spaceId, revisions.head) : null;
}

function storedHead(mirror: HeadFileStores, changeRequestId: string, pageId: string, files = headFiles(mirror, changeRequestId)): HeadPage | null {
  const file = files?.file(pageId);
  if (!files || !file) return null;
  return { revisionId: files.revisionId, path: file.path, text: file.text, document: mirror.revisionPages.document(files.revisionId, pageId) };
}

/** The blocks of pages of the change request with their lines in their files there now (none for a page whose blocks the mirror lacks). */
export function headBlocks(mirror: HeadFileStores, changeRequestId: string, pageIds: readonly string[]): Map<string, BlockSpan[]> {
  const files = headFiles(mirror, changeRequestId);
  return new Map(
    pageIds.map((id) => {
      const head = storedHead(mirror, changeRequestId, id, files);
      return [id, head?.text && head.document !== null ? blockSpans(head.text, head.document) : []];
    }),
  );
}

/** The head page, its markdown and document fetched when the mirror lacks them and `api` is given. */
async function headPage(api: ApiClient | null, mirror: Mirror, changeRequestId: string, pageId: string): Promise<HeadPage | null> {
  const revisions = diffRevisions(mirror, changeRequestId);
  const stored = storedHead(mirror, changeRequestId, pageId);
  if (!api || !revisions || !stored || (stored.text !== null && stored.document !== null)) return stored;
  const { spaceId, head } = revisions;
  if (stored.text === null) {
    const page = await pageMarkdownAt(api, spaceId, head, pageId);
    mirror.revisionPages.setMarkdown(head, pageId, page.markdown ?? '');
  }
  if (stored.document === null) await ensureDocument(api, mirror, spaceId, head, pageId);
  return storedHead(mirror, changeRequestId, pageId);
}

/**
 * The block a comment on `line` of a page of the change request names (its file as `cr diff`
 * shows it, after the change). Throws LineCommentError when it cannot be said: the content is
 * not in the mirror and `api` is null, the line is past the end, or it is the frontmatter or
 * the title (which no block holds).
 */
export async function lineTarget(api: ApiClient | null, mirror: Mirror, changeRequestId: string, pageId: string, line: number): Promise<LineTarget> {
  const page = await headPage(api, mirror, changeRequestId, pageId);
  if (!page) {
    if (!diffRevisions(mirror, changeRequestId))
      throw new LineCommentError('Quire has not read the change request’s content yet, and that needs the server', 'needs-server');
    throw new LineCommentError('that page is not in the change request');
  }
  if (page.text === null || page.document === null)
    throw new LineCommentError('Quire has not read this page of the change request yet, and that needs the server', 'needs-server');
  const count = page.text.endsWith('\n') ? page.text.split('\n').length - 1 : page.text.split('\n').length;
  if (line > count) throw new LineCommentError(`line ${line} is past the end of the page (it has ${count} lines in the change request)`);
  const span = blockForLine(blockSpans(page.text, page.document), line);
  if (!span)
    throw new LineCommentError(
      `line ${line} is the page's frontmatter or title, which comments on a line cannot name; leave out --line to comment on the whole page`,
    );
  return { nodeId: span.key, revisionId: page.revisionId, start: span.start, end: span.end, path: page.path };
}

/** The anchor of a comment on a block, from its page's file and document at its revision. */
function anchorFrom(comment: { id: string; pageId: string; nodeId: string }, revisionId: string, text: string, document: unknown): CommentAnchor {
  const span = blockSpans(text, document).find((s) => s.key === comment.nodeId);
  const block = findBlock(document, comment.nodeId);
  const lines = text.split('\n');
  return {
    commentId: comment.id,
    revisionId,
    pageId: comment.pageId,
    nodeId: comment.nodeId,
    fingerprint: block ? blockFingerprint(block) : null,
    line: span?.start ?? null,
    lines: span ? lines.slice(span.start - 1, span.end) : null,
  };
}

/** The revision a comment on a block was made on: the server's word, or (posted offline) the revision its line was read at. */
function revisionOf(mirror: Pick<Mirror, 'reviewActions' | 'reviewRecords'>, commentId: string): string | null {
  const server = mirror.reviewRecords.serverComment(commentId)?.target?.revision;
  if (server) return server;
  const create = mirror.reviewActions.pendingFor('comment_id', commentId).find((a) => a.kind === 'postComment');
  return create?.payload.revisionId ?? null;
}

/**
 * Reads where the change request's comments on a block were made, for those not read yet: from
 * the mirror when it holds that revision of the page (a comment made on the current revision
 * costs nothing), else from the server when `api` is given (two requests per comment, once).
 */
export async function ensureAnchors(api: ApiClient | null, mirror: Mirror, changeRequestId: string, signal?: AbortSignal): Promise<number> {
  const cr = mirror.reviewViews.changeRequest(changeRequestId);
  if (!cr) return 0;
  const onBlocks = mirror.reviewViews
    .comments({ changeRequestId, status: 'all' })
    .filter((c): c is typeof c & { pageId: string; nodeId: string } => c.nodeId !== null && c.pageId !== null);
  const known = mirror.commentAnchors.anchors(onBlocks.map((c) => c.id));
  const revisions = new Map<string, RevisionFiles>();
  let read = 0;
  for (const c of onBlocks) {
    if (known.has(c.id)) continue;
    signal?.throwIfAborted();
    const revisionId = revisionOf(mirror, c.id);
    if (!revisionId) continue;
    if (!revisions.has(revisionId)) revisions.set(revisionId, new RevisionFiles(mirror, cr.spaceId, revisionId));
    const stored = revisions.get(revisionId)!.file(c.pageId);
    const document = mirror.revisionPages.document(revisionId, c.pageId);
    let anchor: CommentAnchor | null = null;
    if (stored?.text && document !== null) anchor = anchorFrom({ ...c, nodeId: c.nodeId }, revisionId, stored.text, document);
    else if (api) {
      const [page, fetchedDocument] = await Promise.all([
        pageMarkdownAt(api, cr.spaceId, revisionId, c.pageId),
        pageDocumentAt(api, cr.spaceId, revisionId, c.pageId),
      ]);
      const path = stored?.path ?? mirror.folder.node(cr.spaceId, c.pageId)?.path ?? null;
      const text = composePageFile(
        { title: page.title, fields: fileMeta(page as unknown as Record<string, unknown>), markdown: page.markdown ?? '' },
        new LinkResolver(mirror),
        cr.spaceId,
        path,
      );
      anchor = anchorFrom(c, revisionId, text, fetchedDocument);
    }
    if (!anchor) continue;
    const kept = anchor;
    mirror.transaction(() => mirror.commentAnchors.put(kept));
    read++;
  }
  return read;
}

export interface ThreadPlace {
  commentId: string;
  pageId: string;
  nodeId: string;
  /** The block's first line in the page's file in the change request now; null when it is not there (or not known). */
  line: number | null;
  /** Its lines there now. */
  end: number | null;
  /** The block changed or went away since the comment was made. */
  outdated: boolean;
  /** Where the comment was made: the block's first line and lines then (null when not read yet). */
  madeAt: { line: number | null; lines: string[] | null } | null;
}

/** Where each thread on a block of the change request shows now, from the mirror alone. */
export function threadPlaces(mirror: Mirror, changeRequestId: string): Map<string, ThreadPlace> {
  const onBlocks = mirror.reviewViews
    .comments({ changeRequestId, status: 'all' })
    .filter((c): c is typeof c & { pageId: string; nodeId: string } => c.nodeId !== null && c.pageId !== null);
  const anchors = mirror.commentAnchors.anchors(onBlocks.map((c) => c.id));
  const pages = new Map<string, { spans: BlockSpan[]; document: unknown } | null>();
  const files = onBlocks.length > 0 ? headFiles(mirror, changeRequestId) : null;
  const pageNow = (pageId: string) => {
    if (!pages.has(pageId)) {
      const head = storedHead(mirror, changeRequestId, pageId, files);
      pages.set(pageId, head?.text && head.document !== null ? { spans: blockSpans(head.text, head.document), document: head.document } : null);
    }
    return pages.get(pageId) ?? null;
  };
  const places = new Map<string, ThreadPlace>();
  for (const c of onBlocks) {
    const anchor = anchors.get(c.id) ?? null;
    const now = pageNow(c.pageId);
    const span = now?.spans.find((s) => s.key === c.nodeId) ?? null;
    const block = now ? findBlock(now.document, c.nodeId) : null;
    const outdated = !!now && !!anchor && anchor.fingerprint !== null && (!block || blockFingerprint(block) !== anchor.fingerprint);
    places.set(c.id, {
      commentId: c.id,
      pageId: c.pageId,
      nodeId: c.nodeId,
      line: span?.start ?? null,
      end: span?.end ?? null,
      outdated,
      madeAt: anchor ? { line: anchor.line, lines: anchor.lines } : null,
    });
  }
  return places;
}
