/**
 * The fake's state and the domain operations on it. HTTP routes and tests share these
 * operations, so seeding through the store and editing through the API behave the same.
 *
 * Content model: every content change creates a new immutable revision (new id, `parents`).
 * Edits to main move the space's `revisionId`; edits to a change request move its `revisionId`.
 */
import type {
  ChangeRequestRec,
  ChangeRequestStatus,
  CollectionRec,
  CommentRec,
  FileRec,
  OrgRec,
  PageRec,
  PageType,
  ReplyRec,
  ReusableContentRec,
  RevisionRec,
  RevisionType,
  ShareLinkRec,
  SiteRec,
  SiteSectionGroupRec,
  SiteSectionRec,
  SiteSpaceRec,
  SiteVisibility,
  SpaceRec,
  SpaceVisibility,
  UserRec,
  VariablesRec,
  VariableValue,
} from './model';
import { applyBatch, BatchError, type BatchOutcome, type ContentChange } from './batch';
import { blobKeyFor, guessContentType } from './batch-files';
import { hasNode } from './document';
import { documentIdFor, normaliseBody } from './markdown';
import { DEFAULT_MARKDOWN, type MarkdownSettings } from './markdown-settings';
import { conflictingPages, mergeRevisions } from './merge';
import { FakeOpenAPISpecs } from './openapi-specs';
import { FakeReviews } from './reviews';
import { FakeTranslations } from './translations';
import { ContentError, pagePath, pagesInOrder, RevisionDraft, type PagePatch } from './tree';

export { BatchError, ContentError };
export type { ContentChange, PagePatch };

export interface PageSeed {
  /** A fixed page id (e.g. to seed content that already holds stable references to it). */
  id?: string;
  title: string;
  slug?: string;
  /** Stored as given (line endings normalised): references are not resolved. */
  markdown?: string;
  description?: string;
  icon?: string;
  emoji?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  /** Git Sync's frontmatter keys (see PageRec). */
  cover?: string;
  coverY?: number;
  coverHeight?: number;
  /** Git Sync's `layout:`: its switches, or the name of a layout GitBook's earlier editor gave (`landing`). */
  layout?: Record<string, unknown> | string;
  tags?: string[];
  /** The page's variables (GitBook's editor sets them; no change request operation does). */
  variables?: Record<string, VariableValue>;
  type?: PageType;
  /** Target URL of a link page. */
  href?: string;
  /** Target page of a link page (instead of `href`), in this space or in `space`. */
  target?: { page: string; space?: string };
  pages?: PageSeed[];
}

/** Where a content edit goes: main (default) or a change request (id or number). */
export interface EditTarget {
  changeRequest?: string | number;
}

export interface SiteSpaceSeed {
  space: string;
  path?: string;
  title?: string;
  default?: boolean;
  hidden?: boolean;
}

export interface SectionSeed {
  title: string;
  path?: string;
  description?: string;
  icon?: string;
  default?: boolean;
  spaces: SiteSpaceSeed[];
}

export interface SiteSeed {
  title: string;
  visibility?: SiteVisibility;
  published?: boolean;
  basename?: string;
  /** Site spaces at the root (sites without sections). */
  spaces?: SiteSpaceSeed[];
  sections?: SectionSeed[];
  /** Section groups, each listing the titles (or ids) of the sections it contains. */
  groups?: Array<{ title: string; icon?: string; sections: string[] }>;
  shareLinks?: Array<{ name: string; active?: boolean }>;
}

/** A resource the caller asked for does not exist; the API answers 404. */
export class NotFoundError extends Error {}
/** The request is well-formed but not acceptable in the current state; the API answers 400. */
export class InvalidRequestError extends Error {}

export interface StoreOptions {
  /** Clock used for every timestamp; defaults to the real time. */
  now?: () => Date;
  currentUser?: { displayName?: string; email?: string };
  /** How page markdown is stored and served (see markdown-settings.ts); default: verbatim. */
  markdown?: Partial<MarkdownSettings>;
}

export class FakeStore {
  readonly users = new Map<string, UserRec>();
  readonly orgs = new Map<string, OrgRec>();
  readonly collections = new Map<string, CollectionRec>();
  readonly spaces = new Map<string, SpaceRec>();
  readonly revisions = new Map<string, RevisionRec>();
  readonly changeRequests = new Map<string, ChangeRequestRec>();
  readonly comments = new Map<string, CommentRec>();
  readonly sites = new Map<string, SiteRec>();
  readonly sections = new Map<string, SiteSectionRec>();
  readonly sectionGroups = new Map<string, SiteSectionGroupRec>();
  readonly siteSpaces = new Map<string, SiteSpaceRec>();
  readonly shareLinks = new Map<string, ShareLinkRec>();
  readonly blobs = new Map<string, { bytes: Buffer; contentType: string }>();
  readonly currentUser: UserRec;
  /** Reviews, requested reviewers and merge rules (reviews.ts). */
  readonly review: FakeReviews;
  /** OpenAPI specifications of organizations, with their versions (openapi-specs.ts). */
  readonly openapi: FakeOpenAPISpecs;
  /** Translations of organizations (translations.ts). */
  readonly translations: FakeTranslations;
  /** Mutable: tests may switch settings at run time. */
  readonly markdown: MarkdownSettings;

  private counter = 0;
  private lastTime = 0;
  private readonly clock: () => Date;

  constructor(options: StoreOptions = {}) {
    this.clock = options.now ?? (() => new Date());
    this.markdown = { ...DEFAULT_MARKDOWN, ...options.markdown };
    this.review = new FakeReviews(this);
    this.openapi = new FakeOpenAPISpecs(this);
    this.translations = new FakeTranslations(this);
    this.currentUser = this.addUser({
      displayName: options.currentUser?.displayName ?? 'Casey Quire',
      email: options.currentUser?.email ?? 'casey@example.com',
    });
  }

  /** ISO timestamp, strictly increasing so `updatedAt` always moves forward. */
  now(): string {
    const time = Math.max(this.clock().getTime(), this.lastTime + 1);
    this.lastTime = time;
    return new Date(time).toISOString();
  }

  newId(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter.toString(36).padStart(4, '0')}`;
  }

  // ---- users, organisations, collections, spaces ---------------------------------------------

  addUser(input: { displayName: string; email?: string; photoURL?: string }): UserRec {
    const id = this.newId('user');
    const user: UserRec = {
      id,
      displayName: input.displayName,
      email: input.email ?? `${id}@example.com`,
      ...(input.photoURL ? { photoURL: input.photoURL } : {}),
    };
    this.users.set(id, user);
    return user;
  }

  user(id: string): UserRec {
    return this.must(this.users.get(id), `user "${id}"`);
  }

  addOrg(input: { title: string; members?: string[] }): OrgRec {
    const org: OrgRec = {
      id: this.newId('org'),
      title: input.title,
      createdAt: this.now(),
      memberIds: [this.currentUser.id, ...(input.members ?? []).filter((m) => m !== this.currentUser.id)],
    };
    this.orgs.set(org.id, org);
    return org;
  }

  org(id: string): OrgRec {
    return this.must(this.orgs.get(id), `organization "${id}"`);
  }

  addCollection(orgId: string, input: { title: string; description?: string; parent?: string }): CollectionRec {
    this.org(orgId);
    if (input.parent !== undefined) this.collection(input.parent);
    const collection: CollectionRec = {
      id: this.newId('coll'),
      orgId,
      title: input.title,
      createdAt: this.now(),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.parent !== undefined ? { parentId: input.parent } : {}),
    };
    this.collections.set(collection.id, collection);
    return collection;
  }

  collection(id: string): CollectionRec {
    return this.must(this.collections.get(id), `collection "${id}"`);
  }

  addSpace(
    orgId: string,
    input: { id?: string; title: string; emoji?: string; visibility?: SpaceVisibility; parent?: string; pages?: PageSeed[]; variables?: VariablesRec },
  ): SpaceRec {
    this.org(orgId);
    if (input.parent !== undefined) this.collection(input.parent);
    if (input.id !== undefined && this.spaces.has(input.id)) throw new InvalidRequestError(`space "${input.id}" already exists in this fake`);
    const now = this.now();
    const spaceId = input.id ?? this.newId('space');
    const draft = new RevisionDraft(undefined, now);
    this.seedPages(draft, input.pages ?? [], null);
    if (input.variables) draft.setVariables(input.variables);
    const revision = this.commit(draft, spaceId, 'edits', []);
    const space: SpaceRec = {
      id: spaceId,
      orgId,
      title: input.title,
      emoji: input.emoji ?? '',
      visibility: input.visibility ?? (input.parent !== undefined ? 'in-collection' : 'private'),
      createdAt: now,
      updatedAt: now,
      revisionId: revision.id,
      nextChangeRequestNumber: 1,
      ...(input.parent !== undefined ? { collectionId: input.parent } : {}),
    };
    this.spaces.set(spaceId, space);
    return space;
  }

  space(id: string): SpaceRec {
    return this.must(this.spaces.get(id), `space "${id}"`);
  }

  // ---- content reads ----------------------------------------------------------------------------

  currentRevision(spaceId: string): RevisionRec {
    return this.revisionOf(spaceId, {});
  }

  /** A revision of the space (main or change request revisions alike). */
  revision(spaceId: string, revisionId: string): RevisionRec {
    const revision = this.revisions.get(revisionId);
    if (!revision || revision.spaceId !== spaceId) throw new NotFoundError(`revision "${revisionId}" does not exist in space "${spaceId}"`);
    return revision;
  }

  /** Revision an edit target currently points at. */
  revisionOf(spaceId: string, target: EditTarget): RevisionRec {
    const id = target.changeRequest !== undefined ? this.changeRequest(spaceId, target.changeRequest).revisionId : this.space(spaceId).revisionId;
    return this.must(this.revisions.get(id), `revision "${id}"`);
  }

  page(spaceId: string, pageId: string, target: EditTarget = {}): PageRec {
    const page = this.revisionOf(spaceId, target).pages.get(pageId);
    if (!page) throw new NotFoundError(`page "${pageId}" does not exist in space "${spaceId}"`);
    return page;
  }

  pageMarkdown(spaceId: string, pageId: string, target: EditTarget = {}): string {
    return this.page(spaceId, pageId, target).markdown;
  }

  pagePath(spaceId: string, pageId: string, target: EditTarget = {}): string {
    this.page(spaceId, pageId, target);
    return pagePath(this.revisionOf(spaceId, target), pageId);
  }

  /** The page at a slash-joined slug path, e.g. `guides/install`. */
  pageByPath(spaceId: string, path: string, target: EditTarget = {}): PageRec {
    const revision = this.revisionOf(spaceId, target);
    for (const page of revision.pages.values()) if (pagePath(revision, page.id) === path) return page;
    throw new NotFoundError(`no page at path "${path}" in space "${spaceId}"`);
  }

  /** All pages of the target's revision in tree order (parents before children). */
  pages(spaceId: string, target: EditTarget = {}): PageRec[] {
    const revision = this.revisionOf(spaceId, target);
    return pagesInOrder(revision).map((id) => this.must(revision.pages.get(id), `page "${id}"`));
  }

  /** The first page (in tree order) with exactly this title. */
  pageByTitle(spaceId: string, title: string, target: EditTarget = {}): PageRec {
    const revision = this.revisionOf(spaceId, target);
    for (const id of pagesInOrder(revision)) {
      const page = revision.pages.get(id);
      if (page?.title === title) return page;
    }
    throw new NotFoundError(`no page titled "${title}" in space "${spaceId}"`);
  }

  // ---- content edits (main or a change request) ---------------------------------------------

  addPage(spaceId: string, seed: PageSeed, options: EditTarget & { parent?: string | null; at?: number } = {}): PageRec {
    let created: PageRec | undefined;
    this.edit(spaceId, options, (draft) => {
      created = this.seedPage(draft, seed, options.parent ?? null, options.at);
    });
    return this.must(created, 'created page');
  }

  /** Edits a page; `markdown` is stored as the body verbatim (line endings normalised). */
  editPage(spaceId: string, pageId: string, patch: PagePatch, target: EditTarget = {}): PageRec {
    this.edit(spaceId, target, (draft) => {
      draft.updatePage(pageId, patch.markdown === undefined ? patch : { ...patch, markdown: normaliseBody(patch.markdown) });
    });
    return this.page(spaceId, pageId, target);
  }

  deletePage(spaceId: string, pageId: string, target: EditTarget = {}): void {
    this.edit(spaceId, target, (draft) => {
      draft.deletePage(pageId);
    });
  }

  movePage(spaceId: string, pageId: string, to: { parent: string | null; at?: number }, target: EditTarget = {}): PageRec {
    this.edit(spaceId, target, (draft) => {
      draft.movePage(pageId, to.parent, to.at);
    });
    return this.page(spaceId, pageId, target);
  }

  addFile(spaceId: string, input: { id?: string; name: string; contentType?: string; bytes: Buffer | string } & EditTarget): FileRec {
    const bytes = typeof input.bytes === 'string' ? Buffer.from(input.bytes) : input.bytes;
    const contentType = input.contentType ?? guessContentType(input.name);
    if (input.id !== undefined && this.revisionOf(spaceId, input).files.has(input.id)) {
      throw new InvalidRequestError(`file "${input.id}" already exists in space "${spaceId}"`);
    }
    const file: FileRec = {
      id: input.id ?? this.newId('file'),
      name: input.name,
      contentType,
      size: bytes.length,
      blobKey: this.putBlob(bytes, contentType),
    };
    this.edit(spaceId, input, (draft) => draft.putFile(file));
    return file;
  }

  deleteFile(spaceId: string, fileId: string, target: EditTarget = {}): void {
    this.edit(spaceId, target, (draft) => draft.removeFile(fileId));
  }

  /**
   * Adds (or, with an existing `id`, replaces) reusable content: `markdown` stored as given, or
   * `document`, the JSON document GitBook stores (served as it is, checked against the spec).
   */
  addReusableContent(
    spaceId: string,
    input: { id?: string; title: string } & ({ markdown: string } | { document: Record<string, unknown> }) & EditTarget,
  ): ReusableContentRec {
    const id = input.id ?? this.newId('rc');
    const content: ReusableContentRec =
      'document' in input
        ? { id, title: input.title, markdown: '', document: structuredClone(input.document), documentId: documentIdFor(id, JSON.stringify(input.document)) }
        : { id, title: input.title, markdown: normaliseBody(input.markdown), documentId: documentIdFor(id, normaliseBody(input.markdown)) };
    this.edit(spaceId, input, (draft) => draft.putReusableContent(content));
    return content;
  }

  deleteReusableContent(spaceId: string, id: string, target: EditTarget = {}): void {
    this.edit(spaceId, target, (draft) => draft.removeReusableContent(id));
  }

  /** Sets the space's variables (`Revision.variables`), as GitBook's editor does. */
  setVariables(spaceId: string, variables: VariablesRec, target: EditTarget = {}): void {
    this.edit(spaceId, target, (draft) => draft.setVariables(variables));
  }

  putBlob(bytes: Buffer, contentType: string): string {
    const key = blobKeyFor(bytes);
    if (!this.blobs.has(key)) this.blobs.set(key, { bytes, contentType });
    return key;
  }

  /**
   * Applies a change-request content batch atomically (see batch.ts). Throws BatchError (400)
   * when any change is invalid; nothing is applied then.
   */
  applyContentChanges(
    spaceId: string,
    changeRequest: string | number,
    changes: ContentChange[],
    blobForUrl: (url: string) => { bytes: Buffer; contentType: string } | undefined = () => undefined,
  ): BatchOutcome & { changeRequest: ChangeRequestRec } {
    const cr = this.changeRequest(spaceId, changeRequest);
    this.assertEditable(cr);
    let outcome: BatchOutcome | undefined;
    this.edit(spaceId, { changeRequest: cr.id }, (draft) => {
      outcome = applyBatch(draft, changes, {
        newId: (prefix) => this.newId(prefix),
        putBlob: (bytes, contentType) => this.putBlob(bytes, contentType),
        blobForUrl,
        revisionFor: (id) => {
          const revisionId = id ?? cr.revisionMergedAncestor ?? cr.revisionInitial;
          const revision = this.revisions.get(revisionId);
          return revision?.spaceId === spaceId ? revision : undefined;
        },
        markdown: this.markdown,
      });
    });
    return { ...this.must(outcome, 'batch outcome'), changeRequest: cr };
  }

  // ---- change requests --------------------------------------------------------------------------

  addChangeRequest(
    spaceId: string,
    input: { subject?: string; status?: 'draft' | 'open'; createdBy?: string; changes?: ContentChange[] } = {},
  ): ChangeRequestRec {
    const space = this.space(spaceId);
    const now = this.now();
    const cr: ChangeRequestRec = {
      id: this.newId('cr'),
      spaceId,
      number: space.nextChangeRequestNumber++,
      status: input.status ?? 'open',
      subject: input.subject ?? '',
      createdBy: input.createdBy ?? this.currentUser.id,
      createdAt: now,
      updatedAt: now,
      revisionInitial: space.revisionId,
      revisionId: space.revisionId,
    };
    this.changeRequests.set(cr.id, cr);
    if (input.changes && input.changes.length > 0) this.applyContentChanges(spaceId, cr.id, input.changes);
    return cr;
  }

  /** By id or by number within the space. */
  changeRequest(spaceId: string, idOrNumber: string | number): ChangeRequestRec {
    const key = String(idOrNumber);
    const byId = this.changeRequests.get(key);
    if (byId && byId.spaceId === spaceId) return byId;
    if (/^\d+$/.test(key)) {
      for (const cr of this.changeRequests.values()) if (cr.spaceId === spaceId && cr.number === Number(key)) return cr;
    }
    throw new NotFoundError(`change request "${key}" does not exist in space "${spaceId}"`);
  }

  changeRequestsOf(spaceId: string): ChangeRequestRec[] {
    return [...this.changeRequests.values()].filter((cr) => cr.spaceId === spaceId);
  }

  updateChangeRequestFields(
    spaceId: string,
    idOrNumber: string | number,
    patch: { subject?: string; status?: ChangeRequestStatus; description?: unknown },
  ): ChangeRequestRec {
    const cr = this.changeRequest(spaceId, idOrNumber);
    if (patch.status !== undefined && patch.status !== cr.status) {
      if (cr.status === 'merged') throw new InvalidRequestError(`change request #${cr.number} is merged; its status can no longer change`);
      if (patch.status === 'merged') throw new InvalidRequestError('a change request becomes merged only through the merge operation');
      cr.status = patch.status;
    }
    if (patch.subject !== undefined) cr.subject = patch.subject;
    if (patch.description !== undefined) cr.description = patch.description;
    cr.updatedAt = this.now();
    return cr;
  }

  /** The revision of main a change request is based on (its last update, or its creation). */
  baseRevisionId(cr: ChangeRequestRec): string {
    return cr.revisionMergedAncestor ?? cr.revisionInitial;
  }

  isOutdated(cr: ChangeRequestRec): boolean {
    if (cr.status === 'merged' || cr.status === 'archived') return false;
    return this.baseRevisionId(cr) !== this.space(cr.spaceId).revisionId;
  }

  /** Merges a change request into main (see merge.ts for the rule). Returns the new main revision. */
  mergeChangeRequest(spaceId: string, idOrNumber: string | number, by: string = this.currentUser.id): RevisionRec {
    const cr = this.changeRequest(spaceId, idOrNumber);
    this.assertEditable(cr);
    const space = this.space(spaceId);
    const main = this.revision(spaceId, space.revisionId);
    const theirs = this.revision(spaceId, cr.revisionId);
    const base = this.revision(spaceId, this.baseRevisionId(cr));
    const merged = mergeRevisions(base, main, theirs);
    const revision = this.commit(new RevisionDraft(merged, this.now()), spaceId, 'merge', [main.id, theirs.id], cr.id);
    space.revisionId = revision.id;
    space.updatedAt = revision.createdAt;
    Object.assign(cr, { status: 'merged', revisionMerged: revision.id, mergedAt: revision.createdAt, mergedBy: by, updatedAt: revision.createdAt });
    return revision;
  }

  /** Pages an update of the change request from main would find changed on both sides (`conflictingPages`); none when it is up to date. */
  updateConflicts(spaceId: string, idOrNumber: string | number): string[] {
    const cr = this.changeRequest(spaceId, idOrNumber);
    if (!this.isOutdated(cr)) return [];
    const main = this.revision(spaceId, this.space(spaceId).revisionId);
    return conflictingPages(this.revision(spaceId, this.baseRevisionId(cr)), main, this.revision(spaceId, cr.revisionId));
  }

  /** Brings main's changes into a change request. Returns the change request's new revision. */
  updateChangeRequest(spaceId: string, idOrNumber: string | number): RevisionRec {
    const cr = this.changeRequest(spaceId, idOrNumber);
    this.assertEditable(cr);
    const space = this.space(spaceId);
    if (!this.isOutdated(cr)) return this.revision(spaceId, cr.revisionId);
    const main = this.revision(spaceId, space.revisionId);
    const theirs = this.revision(spaceId, cr.revisionId);
    const base = this.revision(spaceId, this.baseRevisionId(cr));
    const merged = mergeRevisions(base, main, theirs);
    const revision = this.commit(new RevisionDraft(merged, this.now()), spaceId, 'update', [theirs.id, main.id]);
    Object.assign(cr, { revisionId: revision.id, revisionMergedAncestor: main.id, updatedAt: revision.createdAt });
    return revision;
  }

  // ---- comments -----------------------------------------------------------------------------

  addComment(
    spaceId: string,
    input: { body: string; page?: string; node?: string; changeRequest?: string | number; by?: string; resolved?: boolean },
  ): CommentRec {
    const cr = input.changeRequest !== undefined ? this.changeRequest(spaceId, input.changeRequest) : undefined;
    const revision = this.revisionOf(spaceId, cr ? { changeRequest: cr.id } : {});
    if (input.page !== undefined && !revision.pages.has(input.page)) {
      throw new InvalidRequestError(`page "${input.page}" does not exist in ${cr ? `change request #${cr.number}` : `space "${spaceId}"`}`);
    }
    if (input.node !== undefined) {
      // A node is a block of a page's document at the revision commented on.
      const pages = input.page !== undefined ? [revision.pages.get(input.page)!] : [...revision.pages.values()];
      if (!pages.some((p) => p.document !== undefined && hasNode(p.document, input.node!))) {
        throw new InvalidRequestError(`node "${input.node}" is not a block of ${input.page !== undefined ? `page "${input.page}"` : 'any page'} here`);
      }
    }
    const by = input.by ?? this.currentUser.id;
    this.user(by);
    const now = this.now();
    const comment: CommentRec = {
      id: this.newId('comment'),
      spaceId,
      revisionId: revision.id,
      markdown: input.body,
      postedBy: by,
      postedAt: now,
      status: 'open',
      reactions: [],
      replies: [],
      ...(cr ? { changeRequestId: cr.id } : {}),
      ...(input.page !== undefined ? { pageId: input.page } : {}),
      ...(input.node !== undefined ? { nodeId: input.node } : {}),
    };
    this.comments.set(comment.id, comment);
    if (input.resolved) this.updateComment(comment, { resolved: true }, by);
    return comment;
  }

  /** A comment of the space (and of the change request, when given). */
  comment(spaceId: string, commentId: string, changeRequest?: string | number): CommentRec {
    const comment = this.comments.get(commentId);
    const crId = changeRequest !== undefined ? this.changeRequest(spaceId, changeRequest).id : undefined;
    if (!comment || comment.spaceId !== spaceId || comment.changeRequestId !== crId) {
      throw new NotFoundError(`comment "${commentId}" does not exist here`);
    }
    return comment;
  }

  commentsOf(spaceId: string, changeRequest?: string | number): CommentRec[] {
    const crId = changeRequest !== undefined ? this.changeRequest(spaceId, changeRequest).id : undefined;
    return [...this.comments.values()].filter((c) => c.spaceId === spaceId && c.changeRequestId === crId);
  }

  updateComment(
    comment: CommentRec,
    patch: { resolved?: boolean; body?: string; addedReactions?: string[]; removedReactions?: string[] },
    by: string = this.currentUser.id,
  ): CommentRec {
    const now = this.now();
    if (patch.body !== undefined) {
      comment.markdown = patch.body;
      comment.editedAt = now;
    }
    if (patch.resolved === true && comment.status !== 'resolved') Object.assign(comment, { status: 'resolved', resolvedAt: now, resolvedBy: by });
    if (patch.resolved === false && comment.status === 'resolved') {
      comment.status = 'open';
      delete comment.resolvedAt;
      delete comment.resolvedBy;
    }
    applyReactions(comment, patch, by, now);
    return comment;
  }

  deleteComment(spaceId: string, commentId: string, changeRequest?: string | number): void {
    const crId = changeRequest !== undefined ? this.changeRequest(spaceId, changeRequest).id : undefined;
    const comment = this.comments.get(commentId);
    if (comment && comment.spaceId === spaceId && comment.changeRequestId === crId) this.comments.delete(commentId);
  }

  addReply(spaceId: string, commentId: string, input: { body: string; by?: string; changeRequest?: string | number }): ReplyRec {
    const comment = this.comment(spaceId, commentId, input.changeRequest);
    const by = input.by ?? this.currentUser.id;
    this.user(by);
    const reply: ReplyRec = { id: this.newId('reply'), commentId, markdown: input.body, postedBy: by, postedAt: this.now(), reactions: [] };
    comment.replies.push(reply);
    return reply;
  }

  reply(comment: CommentRec, replyId: string): ReplyRec {
    const reply = comment.replies.find((r) => r.id === replyId);
    if (!reply) throw new NotFoundError(`reply "${replyId}" does not exist on comment "${comment.id}"`);
    return reply;
  }

  updateReply(reply: ReplyRec, patch: { body?: string; addedReactions?: string[]; removedReactions?: string[] }, by: string = this.currentUser.id): ReplyRec {
    const now = this.now();
    if (patch.body !== undefined) {
      reply.markdown = patch.body;
      reply.editedAt = now;
    }
    applyReactions(reply, patch, by, now);
    return reply;
  }

  // ---- sites --------------------------------------------------------------------------------

  addSite(orgId: string, seed: SiteSeed): SiteRec {
    this.org(orgId);
    const site: SiteRec = {
      id: this.newId('site'),
      orgId,
      title: seed.title,
      visibility: seed.visibility ?? 'public',
      published: seed.published ?? true,
      createdAt: this.now(),
      ...(seed.basename !== undefined ? { basename: seed.basename } : {}),
    };
    this.sites.set(site.id, site);
    for (const s of seed.spaces ?? []) this.addSiteSpace(site.id, s);
    const sectionIdsByTitle = new Map<string, string>();
    for (const sectionSeed of seed.sections ?? []) {
      const section = this.addSection(site.id, sectionSeed);
      sectionIdsByTitle.set(sectionSeed.title, section.id);
    }
    for (const group of seed.groups ?? []) {
      this.addSectionGroup(site.id, { ...group, sections: group.sections.map((s) => sectionIdsByTitle.get(s) ?? s) });
    }
    for (const link of seed.shareLinks ?? []) this.addShareLink(site.id, link);
    return site;
  }

  site(orgId: string, siteId: string): SiteRec {
    const site = this.sites.get(siteId);
    if (!site || site.orgId !== orgId) throw new NotFoundError(`site "${siteId}" does not exist in organization "${orgId}"`);
    return site;
  }

  addSection(siteId: string, seed: SectionSeed): SiteSectionRec {
    const siblings = this.sectionsOf(siteId);
    const section: SiteSectionRec = {
      id: this.newId('sitesc'),
      siteId,
      title: seed.title,
      path: seed.path ?? slugPath(seed.title),
      default: seed.default ?? siblings.length === 0,
      ...(seed.description !== undefined ? { description: seed.description } : {}),
      ...(seed.icon !== undefined ? { icon: seed.icon } : {}),
    };
    if (section.default) for (const s of siblings) s.default = false;
    this.sections.set(section.id, section);
    for (const s of seed.spaces) this.addSiteSpace(siteId, { ...s, section: section.id });
    return section;
  }

  sectionsOf(siteId: string): SiteSectionRec[] {
    return [...this.sections.values()].filter((s) => s.siteId === siteId);
  }

  addSectionGroup(siteId: string, input: { title: string; icon?: string; sections: string[] }): SiteSectionGroupRec {
    for (const id of input.sections) {
      const section = this.sections.get(id);
      if (!section || section.siteId !== siteId) throw new InvalidRequestError(`section "${id}" does not exist in site "${siteId}"`);
    }
    const group: SiteSectionGroupRec = {
      id: this.newId('sitesg'),
      siteId,
      title: input.title,
      sectionIds: [...input.sections],
      ...(input.icon !== undefined ? { icon: input.icon } : {}),
    };
    for (const id of input.sections) {
      const section = this.sections.get(id);
      if (section) section.groupId = group.id;
    }
    this.sectionGroups.set(group.id, group);
    return group;
  }

  addSiteSpace(siteId: string, seed: SiteSpaceSeed & { section?: string }): SiteSpaceRec {
    const space = this.space(seed.space);
    const siblings = this.siteSpacesOf(siteId).filter((s) => s.sectionId === seed.section);
    const siteSpace: SiteSpaceRec = {
      id: this.newId('sitesp'),
      siteId,
      spaceId: space.id,
      path: seed.path ?? slugPath(seed.title ?? space.title),
      default: seed.default ?? siblings.length === 0,
      hidden: seed.hidden ?? false,
      ...(seed.section !== undefined ? { sectionId: seed.section } : {}),
      ...(seed.title !== undefined ? { title: seed.title } : {}),
    };
    if (siteSpace.default) for (const s of siblings) s.default = false;
    this.siteSpaces.set(siteSpace.id, siteSpace);
    return siteSpace;
  }

  siteSpacesOf(siteId: string): SiteSpaceRec[] {
    return [...this.siteSpaces.values()].filter((s) => s.siteId === siteId);
  }

  addShareLink(siteId: string, input: { name: string; active?: boolean }): ShareLinkRec {
    const link: ShareLinkRec = {
      id: this.newId('share'),
      siteId,
      name: input.name,
      active: input.active ?? true,
      key: blobKeyFor(Buffer.from(`${siteId}:${this.counter}`)).slice(0, 24),
      createdAt: this.now(),
    };
    this.shareLinks.set(link.id, link);
    return link;
  }

  // ---- internals ----------------------------------------------------------------------------

  private assertEditable(cr: ChangeRequestRec): void {
    if (cr.status === 'merged' || cr.status === 'archived') {
      throw new InvalidRequestError(`change request #${cr.number} is ${cr.status}; only open or draft change requests can change`);
    }
  }

  /** Runs `mutate` on a draft of the target's revision and commits it as a new revision. */
  private edit(spaceId: string, target: EditTarget, mutate: (draft: RevisionDraft) => void): RevisionRec {
    const space = this.space(spaceId);
    const cr = target.changeRequest !== undefined ? this.changeRequest(spaceId, target.changeRequest) : undefined;
    const current = this.revisionOf(spaceId, cr ? { changeRequest: cr.id } : {});
    const draft = new RevisionDraft(current, this.now());
    mutate(draft);
    const revision = this.commit(draft, spaceId, 'edits', [current.id]);
    if (cr) {
      cr.revisionId = revision.id;
      cr.updatedAt = revision.createdAt;
    } else {
      space.revisionId = revision.id;
      space.updatedAt = revision.createdAt;
    }
    return revision;
  }

  private commit(draft: RevisionDraft, spaceId: string, type: RevisionType, parents: string[], mergedFrom?: string): RevisionRec {
    const revision = draft.commit({ id: this.newId('rev'), spaceId, type, parents, ...(mergedFrom ? { mergedFrom } : {}) });
    this.revisions.set(revision.id, revision);
    return revision;
  }

  private seedPages(draft: RevisionDraft, seeds: PageSeed[], parentId: string | null): void {
    for (const seed of seeds) this.seedPage(draft, seed, parentId, undefined);
  }

  private seedPage(draft: RevisionDraft, seed: PageSeed, parentId: string | null, at: number | undefined): PageRec {
    const type = seed.type ?? 'document';
    if (type === 'link' && (seed.href === undefined) === (seed.target === undefined)) {
      throw new InvalidRequestError(`link page "${seed.title}" needs either an href or a target page`);
    }
    const page = draft.insertPage(
      seed.id ?? this.newId('page'),
      {
        type,
        title: seed.title,
        slug: seed.slug ?? draft.freeSlug(parentId, seed.title),
        hidden: seed.hidden ?? false,
        markdown: type === 'document' ? normaliseBody(seed.markdown ?? '') : '',
        ...(seed.description !== undefined ? { description: seed.description } : {}),
        ...(seed.icon !== undefined ? { icon: seed.icon } : {}),
        ...(seed.emoji !== undefined ? { emoji: seed.emoji } : {}),
        ...(seed.noIndex ? { noIndex: true } : {}),
        ...(seed.noRobotsIndex ? { noRobotsIndex: true } : {}),
        ...(seed.cover !== undefined ? { cover: seed.cover } : {}),
        ...(seed.coverY !== undefined ? { coverY: seed.coverY } : {}),
        ...(seed.coverHeight !== undefined ? { coverHeight: seed.coverHeight } : {}),
        ...(seed.layout !== undefined ? { layout: seed.layout } : {}),
        ...(seed.tags !== undefined ? { tags: seed.tags } : {}),
        ...(seed.variables !== undefined ? { variables: { ...seed.variables } } : {}),
        ...(seed.href !== undefined ? { href: seed.href } : {}),
        ...(seed.target !== undefined ? { pageTarget: { ...seed.target } } : {}),
      },
      parentId,
      at,
    );
    this.seedPages(draft, seed.pages ?? [], page.id);
    return page;
  }

  private must<T>(value: T | undefined, what: string): T {
    if (value === undefined) throw new NotFoundError(`${what} does not exist`);
    return value;
  }
}

function slugPath(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'space'
  );
}

function applyReactions(
  target: { reactions: { emoji: string; userId: string; reactedAt: string }[] },
  patch: { addedReactions?: string[]; removedReactions?: string[] },
  by: string,
  now: string,
): void {
  for (const emoji of patch.removedReactions ?? []) {
    target.reactions = target.reactions.filter((r) => !(r.emoji === emoji && r.userId === by));
  }
  for (const emoji of patch.addedReactions ?? []) {
    if (!target.reactions.some((r) => r.emoji === emoji && r.userId === by)) target.reactions.push({ emoji, userId: by, reactedAt: now });
  }
}
