/** Records held by the fake's store. API-shaped JSON is produced from them by serialize.ts. */
import type { JsonDocument } from './document';

export interface UserRec {
  id: string;
  displayName: string;
  email: string;
  photoURL?: string;
}

export interface OrgRec {
  id: string;
  title: string;
  createdAt: string;
  memberIds: string[];
  /** The organization's merge rules (spaces inherit them by default); none when unset. */
  mergeRules?: MergeRulesRec;
}

export interface CollectionRec {
  id: string;
  orgId: string;
  title: string;
  description?: string;
  parentId?: string;
  createdAt: string;
}

export type SpaceVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth' | 'in-collection' | 'private';

export interface SpaceRec {
  id: string;
  orgId: string;
  title: string;
  emoji: string;
  visibility: SpaceVisibility;
  collectionId?: string;
  createdAt: string;
  updatedAt: string;
  editMode?: 'live' | 'locked';
  /** Id of the revision currently live on main. */
  revisionId: string;
  nextChangeRequestNumber: number;
  /** The space's merge rules (MergeRulesSpaceConfiguration); inherit (the organization's) when unset. */
  mergeRules?: MergeRulesRec | { type: 'inherit' };
  /** What the token's user may do here (the Space's `permissions`); every permission when unset. */
  permissions?: Partial<Record<'edit' | 'comment' | 'merge' | 'review' | 'admin', boolean>>;
}

/** A merge rule as the OpenAPI document's `MergeRule` has it. */
export interface MergeRuleRec {
  rule: string;
  users?: string[];
  expression?: string;
  message?: string;
}

/** `MergeRulesStandaloneConfiguration`: rules that must all pass, or none. */
export type MergeRulesRec = { type: 'rules'; rules: MergeRuleRec[] } | { type: 'none' };

export type PageType = 'document' | 'group' | 'link';

/** A variable's value (`VariableValue`): text of at most 256 characters, a number or a flag. */
export type VariableValue = string | number | boolean;
/** Variables by name (`Variables`): a space's (the revision's) or a page's. */
export type VariablesRec = Readonly<Record<string, VariableValue>>;

/** One page as it exists in one revision. Immutable: edits replace the record. */
export interface PageRec {
  readonly id: string;
  readonly type: PageType;
  readonly title: string;
  readonly slug: string;
  readonly parentId: string | null;
  readonly description?: string;
  readonly icon?: string;
  readonly emoji?: string;
  readonly hidden: boolean;
  /** Not indexed by search and ask (`noIndex`); absent means false. */
  readonly noIndex?: boolean;
  /** Not indexed by search engine robots (`noRobotsIndex`); absent means false. */
  readonly noRobotsIndex?: boolean;
  /** Git Sync's cover image (a path, as its frontmatter writes it), its position and height. */
  readonly cover?: string;
  readonly coverY?: number;
  readonly coverHeight?: number;
  /** Git Sync's `layout:` (width, cover, and `{ visible }` switches for title, description, …). */
  readonly layout?: Readonly<Record<string, unknown>> | string;
  /** Tag names, as Git Sync's `tags:` list writes them. */
  readonly tags?: readonly string[];
  /** The page's variables (`RevisionPageDocument.variables`): set in GitBook's editor; no change request operation carries them. */
  readonly variables?: VariablesRec;
  /** Stored body (frontmatter stripped) of document pages; '' for groups and links. */
  readonly markdown: string;
  /** Content-derived id of the document: changes exactly when `markdown` changes. */
  readonly documentId?: string;
  /** The body as a JSON document (document.ts): its blocks' keys carry over edits, as GitBook's do. */
  readonly document?: JsonDocument;
  /** Target URL of link pages pointing at a URL. */
  readonly href?: string;
  /** Target of link pages pointing at a page (of this space, or of `space`). */
  readonly pageTarget?: { readonly page: string; readonly space?: string };
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface FileRec {
  readonly id: string;
  readonly name: string;
  readonly contentType: string;
  readonly size: number;
  /** sha256 of the bytes; the blob route of the fake serves them under this key. */
  readonly blobKey: string;
  readonly dimensions?: { width: number; height: number };
}

/**
 * Reusable content of a space: a block pages include with `{% include %}`. GitBook stores it as
 * a JSON document (`document`, served as it is); content seeded as markdown is served as the
 * fake's minimal document of it.
 */
export interface ReusableContentRec {
  readonly id: string;
  readonly title: string;
  /** Stored body, in the same stable-reference form as page bodies ('' when seeded as a document). */
  readonly markdown: string;
  /** The JSON document GitBook stores (`JSONDocument`), when seeded as one. */
  readonly document?: Readonly<Record<string, unknown>>;
  /** Content-derived id of the document: changes exactly when the content does. */
  readonly documentId: string;
}

export type RevisionType = 'edits' | 'merge' | 'update';

/** An immutable snapshot of a space's content (main or a change request). */
export interface RevisionRec {
  readonly id: string;
  readonly spaceId: string;
  readonly type: RevisionType;
  readonly parents: readonly string[];
  readonly createdAt: string;
  readonly pages: ReadonlyMap<string, PageRec>;
  /** Ordered child ids per parent; the key '' holds the root pages. */
  readonly children: ReadonlyMap<string, readonly string[]>;
  readonly files: ReadonlyMap<string, FileRec>;
  readonly reusableContents: ReadonlyMap<string, ReusableContentRec>;
  /** The space's variables in this revision (`Revision.variables`): set in GitBook's editor, not by change request operations. */
  readonly variables: VariablesRec;
  /** For merge revisions: the change request that was merged. */
  readonly mergedFrom?: string;
  /** Lazily computed derived data (paths, serialised JSON); never part of equality. */
  readonly derived: Map<string, unknown>;
}

export type ChangeRequestStatus = 'draft' | 'open' | 'archived' | 'merged';

export interface ChangeRequestRec {
  id: string;
  spaceId: string;
  number: number;
  status: ChangeRequestStatus;
  subject: string;
  createdBy: string;
  createdAt: string;
  updatedAt: string;
  revisionInitial: string;
  revisionId: string;
  revisionMergedAncestor?: string;
  revisionMerged?: string;
  mergedAt?: string;
  mergedBy?: string;
  /** Users asked to review (the `requestedReviewer` list filter); tests set it directly. */
  requestedReviewers?: string[];
  /** A JSON document (`JSONDocument`), as `updateChangeRequestById` takes it. */
  description?: unknown;
}

export type ReviewStatus = 'approved' | 'changes-requested';

/** A formal review of a change request (`ChangeRequestReview`). */
export interface ReviewRec {
  id: string;
  spaceId: string;
  changeRequestId: string;
  reviewer: string;
  status: ReviewStatus;
  /** The change request's revision when reviewed. */
  revision: string;
  /** Superseded by a newer review or review request of the same reviewer. */
  outdated: boolean;
  requestedBy?: string;
  /** The comment posted with it (a comment of the change request), when one was given. */
  comment?: string;
  createdAt: string;
  updatedAt: string;
}

/** Who asked a reviewer, when, at which revision (`ChangeRequestRequestedReviewer`). */
export interface ReviewRequestRec {
  requestedBy: string;
  revision: string;
  createdAt: string;
}

export interface Reaction {
  emoji: string;
  userId: string;
  reactedAt: string;
}

export interface ReplyRec {
  id: string;
  commentId: string;
  markdown: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  reactions: Reaction[];
}

export interface CommentRec {
  id: string;
  spaceId: string;
  changeRequestId?: string;
  pageId?: string;
  nodeId?: string;
  revisionId: string;
  markdown: string;
  postedBy: string;
  postedAt: string;
  editedAt?: string;
  status: 'open' | 'resolved';
  resolvedAt?: string;
  resolvedBy?: string;
  reactions: Reaction[];
  replies: ReplyRec[];
}

export type SiteVisibility = 'public' | 'unlisted' | 'share-link' | 'visitor-auth';

export interface SiteRec {
  id: string;
  orgId: string;
  title: string;
  visibility: SiteVisibility;
  published: boolean;
  basename?: string;
  createdAt: string;
}

export interface SiteSectionRec {
  id: string;
  siteId: string;
  title: string;
  path: string;
  description?: string;
  icon?: string;
  default: boolean;
  groupId?: string;
}

export interface SiteSectionGroupRec {
  id: string;
  siteId: string;
  title: string;
  icon?: string;
  sectionIds: string[];
}

export interface SiteSpaceRec {
  id: string;
  siteId: string;
  spaceId: string;
  sectionId?: string;
  path: string;
  title?: string;
  default: boolean;
  hidden: boolean;
}

export interface ShareLinkRec {
  id: string;
  siteId: string;
  name: string;
  active: boolean;
  key: string;
  createdAt: string;
}
