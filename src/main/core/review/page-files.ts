/**
 * A change request against its base, page by page, as the files Quire writes in the folder:
 * each document page's file (frontmatter, `# Title`, body with links written for the folder)
 * at the base and at the change request's revision, where the folder's layout puts it, and how
 * it changed — added, removed, modified, or moved or renamed (its file elsewhere, or under
 * another name in the same folder), with or without edits. Answered from the mirror alone:
 * what the last refresh (or `ReviewService.loadChangeRequestDiff`) stored.
 *
 *   const files = changeRequestFiles(mirror, crId);   // null: its content was never fetched
 *   for (const p of files.pages) p.before, p.after;   // file texts (null on the side without it)
 */
import { toLocalLinks } from '../content';
import type { Mirror, StoredRevisionPage } from '../mirror';
import { LinkResolver } from '../sync';
import { pageFileFromServer } from '../sync';
import { type LayoutPage, planLayout } from '../naming';
import { lineCounts } from './text-diff';

export type PageFileChange = 'added' | 'removed' | 'modified' | 'moved';

export interface PageFileDiff {
  pageId: string;
  change: PageFileChange;
  title: string;
  /** Its file in the change request (for a removed page: at the base), relative to the space folder. */
  path: string | null;
  /** Its file at the base when the change request puts it elsewhere. */
  previousPath: string | null;
  /** How its file's place changed: `moved` to another folder, `renamed` in the same one; null when it did not. */
  relocation: 'moved' | 'renamed' | null;
  /** The file's text at the base and in the change request (null on the side without the page, or without its text yet). */
  before: string | null;
  after: string | null;
  linesAdded: number;
  linesRemoved: number;
}

export interface ChangeRequestFiles {
  spaceId: string;
  changeRequestId: string;
  baseRevision: string;
  headRevision: string;
  /** Changed pages, in the change request's tree order (removed ones after, in the base's). */
  pages: PageFileDiff[];
}

/** The stored base and head revisions of a change request's diff; null when never fetched. */
export function diffRevisions(
  mirror: Pick<Mirror, 'reviewRecords' | 'reviewViews'>,
  changeRequestId: string,
): { spaceId: string; base: string; head: string } | null {
  const view = mirror.reviewViews.changeRequest(changeRequestId);
  if (!view) return null;
  const fingerprint = mirror.reviewRecords.changeRequestStates(view.spaceId).get(changeRequestId)?.diffFingerprint;
  if (!fingerprint) return null;
  const [base = '', head = ''] = fingerprint.split('..');
  return { spaceId: view.spaceId, base, head };
}

/** Where each page's file is in the folder's layout of a stored revision (names the folder gave them kept). */
function layoutOf(mirror: Pick<Mirror, 'folder'>, spaceId: string, pages: readonly StoredRevisionPage[]): ReadonlyMap<string, string | null> {
  const byParent = new Map<string | null, StoredRevisionPage[]>();
  for (const p of pages) byParent.set(p.parentId, [...(byParent.get(p.parentId) ?? []), p]);
  const nest = (parent: string | null): LayoutPage[] =>
    (byParent.get(parent) ?? []).map((p) => ({ id: p.pageId, title: p.title, type: p.type, ...(p.slug ? { slug: p.slug } : {}), pages: nest(p.pageId) }));
  const previous = new Map(mirror.folder.tree(spaceId).map((n) => [n.key, { parentId: n.parentKey, name: n.name }]));
  return planLayout(nest(null), { previous }).pagePaths;
}

/** A page's file text from its title, fields and markdown (stable references), its links written for where its file is. */
export function composePageFile(
  page: { title: string; fields: Record<string, unknown>; markdown: string },
  links: LinkResolver,
  spaceId: string,
  path: string | null,
): string {
  const text = pageFileFromServer({ title: page.title, meta: page.fields }, page.markdown);
  return path === null ? text : toLocalLinks(text, links.targetsFor(spaceId, path)).text;
}

/** A stored page's file text at its revision; null without its markdown. */
function fileText(page: StoredRevisionPage, links: LinkResolver, spaceId: string, path: string | null): string | null {
  return page.markdown === null ? null : composePageFile({ ...page, markdown: page.markdown }, links, spaceId, path);
}

/**
 * The pages of one stored revision as files: its tree and layout are read once, on the first
 * page asked for, however many pages are asked for after.
 */
export class RevisionFiles {
  private read: { byId: Map<string, StoredRevisionPage>; paths: ReadonlyMap<string, string | null>; links: LinkResolver } | null = null;

  constructor(
    private readonly mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'outbox' | 'revisionPages'>,
    readonly spaceId: string,
    readonly revisionId: string,
  ) {}

  /** One page as its file: where the layout puts it and its text (null until its markdown is stored); null when it has no file. */
  file(pageId: string): { path: string | null; text: string | null } | null {
    if (!this.read) {
      const tree = this.mirror.revisionPages.tree(this.revisionId);
      this.read = { byId: new Map(tree.map((p) => [p.pageId, p])), paths: layoutOf(this.mirror, this.spaceId, tree), links: new LinkResolver(this.mirror) };
    }
    const page = this.read.byId.get(pageId);
    if (!page || !isFile(page)) return null;
    const path = this.read.paths.get(pageId) ?? null;
    return { path, text: fileText(page, this.read.links, this.spaceId, path) };
  }
}

const isFile = (p: StoredRevisionPage): boolean => p.type !== 'group' && p.type !== 'link';

const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');

/** The stores a change request's pages are read from as files: its revisions, and the folder's records its links resolve against. */
export type HeadFileStores = Pick<Mirror, 'catalog' | 'content' | 'folder' | 'outbox' | 'reviewRecords' | 'reviewViews' | 'revisionPages'>;

/** The change request's changed pages as files; null when its content was never fetched. */
export function changeRequestFiles(mirror: HeadFileStores, changeRequestId: string): ChangeRequestFiles | null {
  const revisions = diffRevisions(mirror, changeRequestId);
  if (!revisions) return null;
  const { spaceId, base, head } = revisions;
  const baseTree = mirror.revisionPages.tree(base);
  const headTree = mirror.revisionPages.tree(head);
  const basePaths = layoutOf(mirror, spaceId, baseTree);
  const headPaths = layoutOf(mirror, spaceId, headTree);
  const links = new LinkResolver(mirror);
  const baseById = new Map(baseTree.filter(isFile).map((p) => [p.pageId, p]));
  const headIds = new Set(headTree.filter(isFile).map((p) => p.pageId));
  const pages: PageFileDiff[] = [];
  const push = (
    page: StoredRevisionPage,
    change: PageFileChange,
    before: string | null,
    after: string | null,
    path: string | null,
    previousPath: string | null,
  ) => {
    const counts = lineCounts(before, after);
    const relocation = previousPath === null || path === null ? null : folderOf(previousPath) === folderOf(path) ? 'renamed' : 'moved';
    pages.push({
      pageId: page.pageId,
      change,
      title: page.title,
      path,
      previousPath,
      relocation,
      before,
      after,
      linesAdded: counts.added,
      linesRemoved: counts.removed,
    });
  };
  for (const after of headTree.filter(isFile)) {
    const path = headPaths.get(after.pageId) ?? null;
    const before = baseById.get(after.pageId);
    if (!before) {
      push(after, 'added', null, fileText(after, links, spaceId, path), path, null);
      continue;
    }
    const previousPath = basePaths.get(after.pageId) ?? null;
    const sameText = before.documentId === after.documentId && before.title === after.title && sameFields(before.fields, after.fields);
    const moved = previousPath !== path ? previousPath : null;
    if (sameText && moved === null) continue;
    const textBefore = fileText(before, links, spaceId, previousPath);
    const textAfter = fileText(after, links, spaceId, path);
    push(after, sameText || textBefore === textAfter ? 'moved' : 'modified', textBefore, textAfter, path, moved);
  }
  for (const before of baseById.values()) {
    if (headIds.has(before.pageId)) continue;
    const path = basePaths.get(before.pageId) ?? null;
    push(before, 'removed', fileText(before, links, spaceId, path), null, path, null);
  }
  return { spaceId, changeRequestId, baseRevision: base, headRevision: head, pages };
}

const sameFields = (a: Record<string, unknown>, b: Record<string, unknown>): boolean => JSON.stringify(a) === JSON.stringify(b);
