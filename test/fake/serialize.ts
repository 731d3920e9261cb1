/**
 * Builds the API's JSON shapes from store records. Revision-derived JSON (page trees, files)
 * is cached on the immutable revision, so repeated reads cost a lookup and a shallow copy.
 */
import type {
  ChangeRequestRec,
  CollectionRec,
  CommentRec,
  FileRec,
  OrgRec,
  PageRec,
  Reaction,
  ReplyRec,
  ReusableContentRec,
  ReviewRec,
  ReviewRequestRec,
  RevisionRec,
  ShareLinkRec,
  SiteRec,
  SiteSectionGroupRec,
  SiteSectionRec,
  SiteSpaceRec,
  SpaceRec,
  UserRec,
} from './model';
import { documentOf } from './document';
import { markdownToJsonDocument } from './markdown';
import { pageMarkdown, type RefsFormat } from './page-markdown';
import type { FakeStore } from './store';
import { childIdsOf, pagePath } from './tree';

type Json = Record<string, unknown>;

const PAGE_LAYOUT = {
  width: 'default',
  cover: false,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: false,
  actions: true,
  anchors: true,
} as const;

/** The API's layout of a page, from Git Sync's `layout:` the page holds (its switches; defaults otherwise). */
function layoutOf(page: PageRec): typeof PAGE_LAYOUT | Record<string, unknown> {
  const layout = page.layout as Record<string, unknown> | undefined;
  if (!layout) return PAGE_LAYOUT;
  const part = (key: string): Record<string, unknown> => {
    const v = layout[key];
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : {};
  };
  const visible = (key: keyof typeof PAGE_LAYOUT): boolean => {
    const v = part(key).visible;
    return typeof v === 'boolean' ? v : (PAGE_LAYOUT[key] as boolean);
  };
  const oneOf = <T extends string>(value: unknown, allowed: readonly T[], fallback: T): T => (allowed.includes(value as T) ? (value as T) : fallback);
  return {
    ...PAGE_LAYOUT,
    width: oneOf(layout.width, ['default', 'wide'], PAGE_LAYOUT.width),
    cover: visible('cover'),
    coverSize: oneOf(part('cover').size, ['hero', 'full', 'background'], PAGE_LAYOUT.coverSize),
    coverMask: oneOf(part('cover').mask, ['none', 'radial'], PAGE_LAYOUT.coverMask),
    title: visible('title'),
    description: visible('description'),
    tableOfContents: visible('tableOfContents'),
    outline: visible('outline'),
    pagination: visible('pagination'),
    metadata: visible('metadata'),
    tags: visible('tags'),
    actions: visible('actions'),
  };
}

const ALL_ORG_PERMISSIONS = {
  view: true,
  access: true,
  admin: true,
  ownTeam: true,
  createContent: true,
  createOpenAPISpec: true,
  viewBilling: true,
  listMembers: true,
  listTeams: true,
  listIntegrations: true,
  listInstallations: true,
  installIntegration: true,
};
const ALL_SPACE_PERMISSIONS = {
  view: true,
  access: true,
  admin: true,
  viewInviteLinks: true,
  edit: true,
  triggerGitSync: true,
  comment: true,
  merge: true,
  review: true,
  installIntegration: true,
};
const ALL_SITE_PERMISSIONS = {
  view: true,
  access: true,
  edit: true,
  create: true,
  admin: true,
  installIntegration: true,
  viewAdaptiveSchema: true,
  editAdaptiveSchema: true,
};

export type BodyFormat = 'markdown' | 'document' | undefined;

export class Serializer {
  constructor(
    private readonly origin: string,
    private readonly store: FakeStore,
  ) {}

  api(path: string): string {
    return `${this.origin}/v1${path}`;
  }

  app(path: string): string {
    return `${this.origin}/app${path}`;
  }

  user(user: UserRec): Json {
    return {
      object: 'user',
      id: user.id,
      displayName: user.displayName,
      email: user.email,
      ...(user.photoURL ? { photoURL: user.photoURL } : {}),
      urls: { location: this.api(`/users/${user.id}`) },
    };
  }

  userById(id: string): Json {
    return this.user(this.store.user(id));
  }

  org(org: OrgRec): Json {
    return {
      object: 'organization',
      id: org.id,
      title: org.title,
      createdAt: org.createdAt,
      emailDomains: [],
      type: 'business',
      inviteLinks: false,
      plan: 'free_2024',
      mergeRules: org.mergeRules ?? { type: 'none' },
      trial: { status: 'notapplicable', count: 0 },
      urls: { location: this.api(`/orgs/${org.id}`), app: this.app(`/o/${org.id}`) },
      permissions: ALL_ORG_PERMISSIONS,
    };
  }

  collection(collection: CollectionRec): Json {
    return {
      object: 'collection',
      id: collection.id,
      title: collection.title,
      ...(collection.description !== undefined ? { description: collection.description } : {}),
      organization: collection.orgId,
      ...(collection.parentId !== undefined ? { parent: collection.parentId } : {}),
      defaultLevel: 'inherit',
      urls: { location: this.api(`/collections/${collection.id}`), app: this.app(`/o/${collection.orgId}/c/${collection.id}`) },
      permissions: { view: true, admin: true, viewInviteLinks: true, create: true },
    };
  }

  space(space: SpaceRec): Json {
    const crs = this.store.changeRequestsOf(space.id);
    const openComments = this.store.commentsOf(space.id).filter((c) => c.status === 'open').length;
    return {
      object: 'space',
      id: space.id,
      title: space.title,
      emoji: space.emoji,
      visibility: space.visibility,
      createdAt: space.createdAt,
      updatedAt: space.updatedAt,
      ...(space.editMode ? { editMode: space.editMode } : {}),
      mergeRules: space.mergeRules ?? { type: 'inherit' },
      urls: {
        location: this.api(`/spaces/${space.id}`),
        app: this.app(`/o/${space.orgId}/s/${space.id}`),
        published: `${this.origin}/published/spaces/${space.id}/`,
      },
      organization: space.orgId,
      ...(space.collectionId !== undefined ? { parent: space.collectionId } : {}),
      revision: space.revisionId,
      defaultLevel: 'inherit',
      comments: openComments,
      changeRequests: crs.length,
      changeRequestsOpen: crs.filter((cr) => cr.status === 'open').length,
      changeRequestsDraft: crs.filter((cr) => cr.status === 'draft').length,
      permissions: { ...ALL_SPACE_PERMISSIONS, ...space.permissions },
    };
  }

  // ---- content ------------------------------------------------------------------------------

  revision(revision: RevisionRec): Json {
    const mergedFrom = revision.mergedFrom ? this.store.changeRequests.get(revision.mergedFrom) : undefined;
    return {
      object: 'revision',
      id: revision.id,
      parents: [...revision.parents],
      pages: this.pageTree(revision),
      files: this.files(revision),
      reusableContents: [...revision.reusableContents.values()].map((rc) => this.reusableContent(rc)),
      tags: [],
      variables: { ...revision.variables },
      createdAt: revision.createdAt,
      type: revision.type,
      ...(mergedFrom ? { mergedFrom: this.changeRequest(mergedFrom) } : {}),
      urls: { app: this.app(`/s/${revision.spaceId}/~/revisions/${revision.id}`) },
    };
  }

  /** Root pages of a revision with their nested children. */
  pageTree(revision: RevisionRec): Json[] {
    return childIdsOf(revision, null).map((id) => this.pageNode(revision, id));
  }

  /**
   * A single page with its content: `markdown` for `format=markdown` (references and head as the
   * markdown settings and `refs` say, see page-markdown.ts), otherwise (the API's default, or
   * `format=document`) a JSON `document`. Group and link pages carry no content.
   */
  page(revision: RevisionRec, pageId: string, format?: BodyFormat, refs?: RefsFormat): Json {
    const node = this.pageNode(revision, pageId);
    const page = revision.pages.get(pageId);
    if (!page || page.type !== 'document') return node;
    return format === 'markdown'
      ? { ...node, markdown: pageMarkdown(revision, page, this.store.markdown, refs ?? 'relative') }
      : { ...node, document: page.document ?? documentOf(page.id, page.markdown) };
  }

  reusableContent(content: ReusableContentRec): Json {
    return { id: content.id, title: content.title, document: content.documentId };
  }

  private pageNode(revision: RevisionRec, pageId: string): Json {
    let cache = revision.derived.get('pageJson') as Map<string, Json> | undefined;
    if (!cache) revision.derived.set('pageJson', (cache = new Map()));
    const cached = cache.get(pageId);
    if (cached) return cached;
    const page = revision.pages.get(pageId);
    if (!page) throw new Error(`page "${pageId}" is not in revision "${revision.id}"`);
    const json = this.pageJson(revision, page);
    cache.set(pageId, json);
    return json;
  }

  private pageJson(revision: RevisionRec, page: PageRec): Json {
    const common = {
      id: page.id,
      title: page.title,
      ...(page.emoji !== undefined ? { emoji: page.emoji } : {}),
      ...(page.icon !== undefined ? { icon: page.icon } : {}),
      createdAt: page.createdAt,
      updatedAt: page.updatedAt,
      hidden: page.hidden,
    };
    if (page.type === 'link') {
      // A page target has no `href`: the spec does not say what GitBook puts there.
      return page.pageTarget
        ? { ...common, kind: 'link', type: 'link', target: { kind: 'page', ...page.pageTarget } }
        : { ...common, kind: 'link', type: 'link', target: { kind: 'url', url: page.href ?? '' }, href: page.href ?? '' };
    }
    const path = pagePath(revision, page.id);
    const children = childIdsOf(revision, page.id).map((id) => this.pageNode(revision, id));
    if (page.type === 'group') {
      return { ...common, kind: 'group', type: 'group', slug: page.slug, path, pages: children };
    }
    return {
      ...common,
      kind: 'sheet',
      type: 'document',
      slug: page.slug,
      path,
      ...(page.description !== undefined ? { description: page.description } : {}),
      urls: { app: this.app(`/s/${revision.spaceId}/${path.split('/').map(encodeURIComponent).join('/')}`) },
      pages: children,
      layout: layoutOf(page),
      tags: [],
      noIndex: page.noIndex ?? false,
      noRobotsIndex: page.noRobotsIndex ?? false,
      ...(page.variables !== undefined ? { variables: { ...page.variables } } : {}),
      ...(page.documentId !== undefined ? { documentId: page.documentId } : {}),
    };
  }

  files(revision: RevisionRec): Json[] {
    let cached = revision.derived.get('filesJson') as Json[] | undefined;
    if (!cached) revision.derived.set('filesJson', (cached = [...revision.files.values()].map((f) => this.file(f))));
    return cached;
  }

  file(file: FileRec): Json {
    return {
      id: file.id,
      name: file.name,
      contentType: file.contentType,
      downloadURL: `${this.origin}/blobs/${file.blobKey}/${encodeURIComponent(file.name)}`,
      size: file.size,
      ...(file.dimensions ? { dimensions: file.dimensions } : {}),
    };
  }

  // ---- change requests ------------------------------------------------------------------------

  changeRequest(cr: ChangeRequestRec): Json {
    const openComments = this.store.commentsOf(cr.spaceId, cr.id).filter((c) => c.status === 'open').length;
    return {
      object: 'change-request',
      id: cr.id,
      number: cr.number,
      status: cr.status,
      subject: cr.subject,
      ...(cr.description !== undefined ? { description: cr.description } : {}),
      createdBy: this.userById(cr.createdBy),
      createdAt: cr.createdAt,
      updatedAt: cr.updatedAt,
      space: cr.spaceId,
      revision: cr.revisionId,
      revisionInitial: cr.revisionInitial,
      ...(cr.revisionMergedAncestor !== undefined ? { revisionMergedAncestor: cr.revisionMergedAncestor } : {}),
      ...(cr.revisionMerged !== undefined ? { revisionMerged: cr.revisionMerged } : {}),
      ...(cr.mergedBy !== undefined ? { mergedBy: this.userById(cr.mergedBy) } : {}),
      ...(cr.mergedAt !== undefined ? { mergedAt: cr.mergedAt } : {}),
      comments: openComments,
      outdated: this.store.isOutdated(cr),
      urls: {
        app: this.app(`/s/${cr.spaceId}/~/changes/${cr.number}`),
        location: this.api(`/spaces/${cr.spaceId}/change-requests/${cr.id}`),
      },
    };
  }

  // ---- comments -------------------------------------------------------------------------------

  comment(comment: CommentRec, format: BodyFormat): Json {
    const base = comment.changeRequestId
      ? `/spaces/${comment.spaceId}/change-requests/${comment.changeRequestId}/comments/${comment.id}`
      : `/spaces/${comment.spaceId}/comments/${comment.id}`;
    const repliers = new Map<string, { count: number; updatedAt: string }>();
    for (const reply of comment.replies) {
      const entry = repliers.get(reply.postedBy) ?? { count: 0, updatedAt: reply.postedAt };
      entry.count += 1;
      if (reply.postedAt > entry.updatedAt) entry.updatedAt = reply.postedAt;
      repliers.set(reply.postedBy, entry);
    }
    return {
      object: 'comment',
      id: comment.id,
      postedBy: this.userById(comment.postedBy),
      postedAt: comment.postedAt,
      ...(comment.editedAt !== undefined ? { editedAt: comment.editedAt } : {}),
      reactions: this.reactions(comment.reactions),
      replies: comment.replies.length,
      repliers: [...repliers].map(([userId, r]) => ({ updatedAt: r.updatedAt, count: r.count, user: this.userById(userId) })),
      body: this.body(comment.markdown, format),
      target: {
        space: comment.spaceId,
        revision: comment.revisionId,
        ...(comment.changeRequestId !== undefined ? { changeRequest: comment.changeRequestId } : {}),
        ...(comment.pageId !== undefined ? { page: { id: comment.pageId } } : {}),
        ...(comment.nodeId !== undefined ? { node: { id: comment.nodeId } } : {}),
      },
      urls: { location: this.api(base) },
      permissions: this.postPermissions(comment.postedBy),
      status: comment.status,
      ...(comment.status === 'resolved' ? { resolvedAt: comment.resolvedAt, resolvedBy: this.userById(comment.resolvedBy ?? comment.postedBy) } : {}),
    };
  }

  reply(comment: CommentRec, reply: ReplyRec, format: BodyFormat): Json {
    const base = comment.changeRequestId
      ? `/spaces/${comment.spaceId}/change-requests/${comment.changeRequestId}/comments/${comment.id}`
      : `/spaces/${comment.spaceId}/comments/${comment.id}`;
    return {
      object: 'comment-reply',
      id: reply.id,
      postedBy: this.userById(reply.postedBy),
      postedAt: reply.postedAt,
      ...(reply.editedAt !== undefined ? { editedAt: reply.editedAt } : {}),
      reactions: this.reactions(reply.reactions),
      body: this.body(reply.markdown, format),
      urls: { location: this.api(`${base}/replies/${reply.id}`) },
      permissions: this.postPermissions(reply.postedBy),
    };
  }

  /** Anyone may read and reply; only the author edits or deletes a comment or reply. */
  private postPermissions(postedBy: string): Json {
    const own = postedBy === this.store.currentUser.id;
    return { view: true, edit: own, reply: true, delete: own };
  }

  review(review: ReviewRec, format: BodyFormat): Json {
    const comment = review.comment !== undefined ? this.store.comments.get(review.comment) : undefined;
    return {
      object: 'change-request-review',
      id: review.id,
      revision: review.revision,
      reviewer: this.userById(review.reviewer),
      ...(review.requestedBy !== undefined ? { requestedBy: this.userById(review.requestedBy) } : {}),
      status: review.status,
      outdated: review.outdated,
      ...(comment ? { comment: this.comment(comment, format) } : {}),
      createdAt: review.createdAt,
      updatedAt: review.updatedAt,
      urls: { location: this.api(`/spaces/${review.spaceId}/change-requests/${review.changeRequestId}/reviews/${review.id}`) },
    };
  }

  requestedReviewer(userId: string, request: ReviewRequestRec): Json {
    return {
      object: 'change-request-requested-reviewer',
      revision: request.revision,
      requestedBy: this.userById(request.requestedBy),
      createdAt: request.createdAt,
      kind: 'user',
      user: this.userById(userId),
    };
  }

  member(userId: string, joinedAt: string): Json {
    return {
      object: 'member',
      id: userId,
      role: 'edit',
      user: this.userById(userId),
      disabled: false,
      joinedAt,
      sso: false,
      spaces: 0,
      teams: 0,
      sites: 0,
    };
  }

  private body(markdown: string, format: BodyFormat): Json {
    return format === 'markdown' ? { markdown } : { document: markdownToJsonDocument(markdown) };
  }

  private reactions(reactions: Reaction[]): Json[] {
    const byEmoji = new Map<string, Reaction[]>();
    for (const r of reactions) byEmoji.set(r.emoji, [...(byEmoji.get(r.emoji) ?? []), r]);
    return [...byEmoji].map(([emoji, list]) => ({
      emoji,
      count: list.length,
      users: list.map((r) => ({ user: this.userById(r.userId), reactedAt: r.reactedAt })),
    }));
  }

  // ---- sites --------------------------------------------------------------------------------

  site(site: SiteRec): Json {
    return {
      object: 'site',
      id: site.id,
      type: 'basic',
      appliedType: 'basic',
      title: site.title,
      ...(site.basename !== undefined ? { basename: site.basename } : {}),
      visibility: site.visibility,
      defaultLevel: 'inherit',
      permissions: ALL_SITE_PERMISSIONS,
      published: site.published,
      siteSpaces: this.store.siteSpacesOf(site.id).length,
      createdAt: site.createdAt,
      features: [],
      urls: {
        location: this.api(`/orgs/${site.orgId}/sites/${site.id}`),
        app: this.app(`/o/${site.orgId}/sites/${site.id}`),
        preview: `${this.origin}/preview/${site.id}/`,
        ...(site.published ? { published: this.publishedUrl(site) } : {}),
      },
    };
  }

  section(section: SiteSectionRec): Json {
    const site = this.store.sites.get(section.siteId);
    return {
      object: 'site-section',
      id: section.id,
      title: section.title,
      ...(section.description !== undefined ? { description: section.description } : {}),
      default: section.default,
      draft: false,
      path: section.path,
      ...(section.groupId !== undefined ? { sectionGroup: section.groupId } : {}),
      ...(section.icon !== undefined ? { icon: section.icon } : {}),
      siteSpaces: this.store
        .siteSpacesOf(section.siteId)
        .filter((s) => s.sectionId === section.id)
        .map((s) => this.siteSpace(s)),
      urls: site?.published ? { published: `${this.publishedUrl(site)}${section.path}/` } : {},
    };
  }

  sectionGroup(group: SiteSectionGroupRec): Json {
    const sections = group.sectionIds.flatMap((id) => {
      const section = this.store.sections.get(id);
      return section ? [this.section(section)] : [];
    });
    return {
      object: 'site-section-group',
      id: group.id,
      title: group.title,
      ...(group.icon !== undefined ? { icon: group.icon } : {}),
      sections,
      children: sections,
      draft: false,
    };
  }

  siteSpace(siteSpace: SiteSpaceRec): Json {
    const space = this.store.space(siteSpace.spaceId);
    const site = this.store.sites.get(siteSpace.siteId);
    return {
      object: 'site-space',
      id: siteSpace.id,
      path: siteSpace.path,
      ...(siteSpace.sectionId !== undefined ? { section: siteSpace.sectionId } : {}),
      space: this.space(space),
      title: siteSpace.title ?? space.title,
      default: siteSpace.default,
      draft: false,
      hidden: siteSpace.hidden,
      urls: site?.published ? { published: `${this.publishedUrl(site)}${siteSpace.path}/` } : {},
    };
  }

  shareLink(link: ShareLinkRec): Json {
    const site = this.store.sites.get(link.siteId);
    return {
      object: 'share-link',
      id: link.id,
      createdAt: link.createdAt,
      name: link.name,
      active: link.active,
      urls: site?.published ? { published: `${this.publishedUrl(site)}?share=${link.key}` } : {},
    };
  }

  published(site: SiteRec): Json {
    const sections = this.store.sectionsOf(site.id);
    const groups = [...this.store.sectionGroups.values()].filter((g) => g.siteId === site.id);
    const structure =
      sections.length > 0
        ? {
            type: 'sections',
            structure: [...sections.filter((s) => s.groupId === undefined).map((s) => this.section(s)), ...groups.map((g) => this.sectionGroup(g))],
          }
        : { type: 'siteSpaces', structure: this.store.siteSpacesOf(site.id).map((s) => this.siteSpace(s)) };
    return {
      object: 'published-content-site',
      site: this.site(site),
      structure,
      customizations: { site: DEFAULT_SITE_CUSTOMIZATION, siteSpaces: {} },
      scripts: [],
    };
  }

  private publishedUrl(site: SiteRec): string {
    return `${this.origin}/published/${site.basename ?? site.id}/`;
  }
}

const DEFAULT_SITE_CUSTOMIZATION = {
  styling: {
    theme: 'clean',
    primaryColor: { light: '#346DDB', dark: '#346DDB' },
    infoColor: { light: '#787878', dark: '#787878' },
    successColor: { light: '#00C950', dark: '#00C950' },
    warningColor: { light: '#FE9A00', dark: '#FE9A00' },
    dangerColor: { light: '#FB2C36', dark: '#FB2C36' },
    corners: 'rounded',
    depth: 'subtle',
    links: 'default',
    font: 'Inter',
    monospaceFont: 'IBMPlexMono',
    codeTheme: {
      default: { light: 'default-light', dark: 'default-dark' },
      openapi: { light: 'default-light', dark: 'default-dark' },
    },
    background: 'plain',
    icons: 'regular',
    sidebar: { background: 'default', list: 'default' },
    search: 'subtle',
  },
  internationalization: { locale: 'en' },
  favicon: {},
  header: { preset: 'default', links: [] },
  footer: { groups: [] },
  themes: { default: 'system', toggeable: true },
  feedback: { enabled: false },
  ai: { mode: 'search' },
  advancedCustomization: { enabled: false },
  trademark: { enabled: true },
  externalLinks: { target: 'self' },
  pagination: { enabled: true },
  pageActions: { items: [] },
  privacyPolicy: {},
  socialPreview: {},
  socialAccounts: [],
  insights: { trackingCookie: false },
};
