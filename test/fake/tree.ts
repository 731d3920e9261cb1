/**
 * Copy-on-write editing of a revision's page tree and files. A draft starts from a revision,
 * applies edits (each checked against the tree rules below) and commits a new immutable
 * revision; untouched page and file records are shared between revisions, so record identity
 * tells what changed.
 *
 * Tree rules: group pages live at the root only; link pages have no children nor slug; slugs are unique
 * among siblings; a page cannot move under itself or its descendants.
 */
import type { FileRec, PageRec, ReusableContentRec, RevisionRec, RevisionType, VariablesRec } from './model';
import { documentOf } from './document';
import { documentIdFor, slugify } from './markdown';

/** A content edit that breaks a tree rule or names a missing page; the API answers 400. */
export class ContentError extends Error {}

const ROOT = '';
const key = (parentId: string | null): string => parentId ?? ROOT;

export type PageFields = Omit<PageRec, 'id' | 'parentId' | 'createdAt' | 'updatedAt' | 'documentId' | 'document'>;
/** The keys of Git Sync's frontmatter the fake keeps beside the API's fields. */
export const GIT_SYNC_KEYS = ['cover', 'coverY', 'coverHeight', 'layout', 'tags'] as const;
type GitSyncKey = (typeof GIT_SYNC_KEYS)[number];

/** A page change; a Git Sync key set to null is cleared (a document without it). */
export type PagePatch = Partial<
  Pick<PageRec, 'title' | 'slug' | 'description' | 'icon' | 'emoji' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'markdown' | 'href' | 'variables'>
> & {
  [K in GitSyncKey]?: PageRec[K] | null;
};

export class RevisionDraft {
  private readonly pages: Map<string, PageRec>;
  private readonly children: Map<string, readonly string[]>;
  private readonly files: Map<string, FileRec>;
  private readonly reusableContents: Map<string, ReusableContentRec>;
  private variables: VariablesRec;

  constructor(
    base: Pick<RevisionRec, 'pages' | 'children' | 'files' | 'reusableContents' | 'variables'> | undefined,
    private readonly now: string,
  ) {
    this.pages = new Map(base?.pages);
    this.children = new Map(base?.children);
    this.files = new Map(base?.files);
    this.reusableContents = new Map(base?.reusableContents);
    this.variables = base?.variables ?? {};
  }

  page(id: string): PageRec | undefined {
    return this.pages.get(id);
  }

  requirePage(id: string): PageRec {
    const page = this.pages.get(id);
    if (!page) throw new ContentError(`page "${id}" does not exist in this revision`);
    return page;
  }

  childIds(parentId: string | null): readonly string[] {
    return this.children.get(key(parentId)) ?? [];
  }

  /** A slug derived from `title` that is free among the children of `parentId`. */
  freeSlug(parentId: string | null, title: string, exceptId?: string): string {
    const base = slugify(title);
    let candidate = base;
    for (let n = 2; this.slugTaken(parentId, candidate, exceptId); n++) candidate = `${base}-${n}`;
    return candidate;
  }

  insertPage(id: string, fields: PageFields, parentId: string | null, at?: number): PageRec {
    if (this.pages.has(id)) throw new ContentError(`page "${id}" already exists`);
    this.checkPlacement(fields.type, parentId);
    if (fields.type !== 'link') this.checkSlug(parentId, fields.slug, undefined);
    const page: PageRec = {
      ...fields,
      id,
      parentId,
      createdAt: this.now,
      updatedAt: this.now,
      ...(fields.type === 'document' ? { documentId: documentIdFor(id, fields.markdown), document: documentOf(id, fields.markdown) } : {}),
    };
    this.pages.set(id, page);
    this.insertChild(parentId, id, at);
    return page;
  }

  updatePage(id: string, patch: PagePatch): PageRec {
    const current = this.requirePage(id);
    // Git Sync's keys are set by a document (a key it does not hold is cleared: `null` in the patch).
    const same = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);
    const changed = (Object.keys(patch) as (keyof PagePatch)[]).some(
      (k) => patch[k] !== undefined && !same(patch[k] ?? undefined, current[k as keyof PageRec]),
    );
    if (!changed) return current;
    if (patch.slug !== undefined && patch.slug !== current.slug && current.type !== 'link') this.checkSlug(current.parentId, patch.slug, id);
    const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined && v !== null)) as PagePatch;
    const cleared = new Set(Object.entries(patch).flatMap(([k, v]) => (v === null ? [k] : [])));
    const next = Object.fromEntries(Object.entries({ ...current, ...defined }).filter(([k]) => !cleared.has(k))) as unknown as PageRec;
    const markdownChanged = next.markdown !== current.markdown;
    const page: PageRec = {
      ...next,
      updatedAt: this.now,
      ...(current.type === 'document' && markdownChanged
        ? { documentId: documentIdFor(id, next.markdown), document: documentOf(id, next.markdown, current.document) }
        : {}),
    };
    this.pages.set(id, page);
    return page;
  }

  /** Moves a page; `at` is its index among the new siblings (clamped; default: end, or unchanged). */
  movePage(id: string, parentId: string | null, at?: number): PageRec {
    const page = this.requirePage(id);
    const sameParent = page.parentId === parentId;
    if (!sameParent) {
      this.checkPlacement(page.type, parentId);
      if (parentId !== null && (parentId === id || this.isAncestor(id, parentId))) {
        throw new ContentError(`page "${id}" cannot move under itself or one of its descendants`);
      }
      if (page.type !== 'link') this.checkSlug(parentId, page.slug, id);
    } else if (at === undefined) {
      return page;
    }
    this.removeChild(page.parentId, id);
    this.insertChild(parentId, id, at);
    if (sameParent) return page;
    const moved: PageRec = { ...page, parentId, updatedAt: this.now };
    this.pages.set(id, moved);
    return moved;
  }

  /** Deletes a page and all its descendants; returns the ids removed. */
  deletePage(id: string): string[] {
    const page = this.requirePage(id);
    const removed: string[] = [];
    const visit = (pageId: string): void => {
      for (const child of this.childIds(pageId)) visit(child);
      this.children.delete(pageId);
      this.pages.delete(pageId);
      removed.push(pageId);
    };
    this.removeChild(page.parentId, id);
    visit(id);
    return removed;
  }

  /** Puts back a page record exactly as given (used by revert and merge). */
  restorePage(page: PageRec, at?: number): void {
    const existing = this.pages.get(page.id);
    if (existing && existing.parentId !== page.parentId) this.removeChild(existing.parentId, page.id);
    if (page.parentId !== null && !this.pages.has(page.parentId)) {
      throw new ContentError(`page "${page.id}" cannot be restored: its parent "${page.parentId}" no longer exists`);
    }
    this.pages.set(page.id, page);
    if (!existing || existing.parentId !== page.parentId) this.insertChild(page.parentId, page.id, at);
  }

  file(id: string): FileRec | undefined {
    return this.files.get(id);
  }

  putFile(file: FileRec): void {
    this.files.set(file.id, file);
  }

  removeFile(id: string): void {
    if (!this.files.delete(id)) throw new ContentError(`file "${id}" does not exist in this revision`);
  }

  reusableContent(id: string): ReusableContentRec | undefined {
    return this.reusableContents.get(id);
  }

  putReusableContent(content: ReusableContentRec): void {
    this.reusableContents.set(content.id, content);
  }

  removeReusableContent(id: string): void {
    if (!this.reusableContents.delete(id)) throw new ContentError(`reusable content "${id}" does not exist in this revision`);
  }

  setVariables(variables: VariablesRec): void {
    this.variables = { ...variables };
  }

  /** Pages, children and files as they stand, for code that reads the draft like a revision. */
  snapshot(): Pick<RevisionRec, 'pages' | 'children' | 'files' | 'reusableContents' | 'variables'> {
    return { pages: this.pages, children: this.children, files: this.files, reusableContents: this.reusableContents, variables: this.variables };
  }

  isAncestor(ancestorId: string, pageId: string): boolean {
    for (let p = this.pages.get(pageId)?.parentId ?? null; p !== null; p = this.pages.get(p)?.parentId ?? null) {
      if (p === ancestorId) return true;
    }
    return false;
  }

  commit(meta: { id: string; spaceId: string; type: RevisionType; parents: string[]; mergedFrom?: string }): RevisionRec {
    return {
      ...meta,
      createdAt: this.now,
      pages: new Map(this.pages),
      children: new Map(this.children),
      files: new Map(this.files),
      reusableContents: new Map(this.reusableContents),
      variables: this.variables,
      derived: new Map(),
    };
  }

  /** Link pages hold no slug (RevisionPageLink has none): a document or group may take theirs. */
  private slugTaken(parentId: string | null, slug: string, exceptId: string | undefined): boolean {
    return this.childIds(parentId).some((id) => {
      const sibling = this.pages.get(id);
      return id !== exceptId && sibling?.type !== 'link' && sibling?.slug === slug;
    });
  }

  private checkSlug(parentId: string | null, slug: string, exceptId: string | undefined): void {
    if (this.slugTaken(parentId, slug, exceptId)) {
      const where = parentId === null ? 'at the root' : `under page "${parentId}"`;
      throw new ContentError(`slug "${slug}" is already used by a sibling ${where}; slugs must be unique among siblings`);
    }
  }

  private checkPlacement(type: PageRec['type'], parentId: string | null): void {
    if (parentId === null) return;
    const parent = this.pages.get(parentId);
    if (!parent) throw new ContentError(`parent page "${parentId}" does not exist in this revision`);
    if (type === 'group') throw new ContentError('group pages can only be placed at the root of the space');
    if (parent.type === 'link') throw new ContentError(`page "${parentId}" is a link page and cannot have child pages`);
  }

  private insertChild(parentId: string | null, id: string, at: number | undefined): void {
    const siblings = [...this.childIds(parentId)];
    const index = at === undefined ? siblings.length : Math.max(0, Math.min(Math.floor(at), siblings.length));
    siblings.splice(index, 0, id);
    this.children.set(key(parentId), siblings);
  }

  private removeChild(parentId: string | null, id: string): void {
    const siblings = this.childIds(parentId).filter((c) => c !== id);
    if (siblings.length === 0) this.children.delete(key(parentId));
    else this.children.set(key(parentId), siblings);
  }
}

export function childIdsOf(revision: RevisionRec, parentId: string | null): readonly string[] {
  return revision.children.get(key(parentId)) ?? [];
}

/** Slash-joined slugs from the root; cached per revision. */
export function pagePath(revision: RevisionRec, pageId: string): string {
  let paths = revision.derived.get('paths') as Map<string, string> | undefined;
  if (!paths) revision.derived.set('paths', (paths = new Map()));
  const cachedPath = paths.get(pageId);
  if (cachedPath !== undefined) return cachedPath;
  const page = revision.pages.get(pageId);
  if (!page) throw new Error(`page "${pageId}" is not in revision "${revision.id}"`);
  const path = page.parentId === null ? page.slug : `${pagePath(revision, page.parentId)}/${page.slug}`;
  paths.set(pageId, path);
  return path;
}

/** Page ids in tree order (depth-first, parents before children). */
export function pagesInOrder(revision: RevisionRec): string[] {
  const out: string[] = [];
  const visit = (parentId: string | null): void => {
    for (const id of childIdsOf(revision, parentId)) {
      out.push(id);
      visit(id);
    }
  };
  visit(null);
  return out;
}
