/**
 * Three-way merge of page trees at page level, used both to merge a change request into main
 * and to update (rebase) a change request onto main. The rule, kept deliberately simple:
 *
 * - A page changed on one side only takes that side's version (a deletion is a change).
 * - A page changed on both sides: its content (title, slug, markdown, metadata) and its
 *   placement (parent) are decided separately; where both sides changed the same aspect, the
 *   change request wins. A page deleted on one side and edited on the other follows the
 *   change request (deleted if the change request deleted it, kept if it edited it).
 * - Sibling order under a parent follows the change request when it reordered that parent's
 *   children, main otherwise; pages new to the other side are appended.
 * - A page whose parent no longer exists moves to the root; a parent cycle created by opposite
 *   moves is broken by moving the page to the root; a slug clash between siblings is resolved
 *   by suffixing the later page's slug (`-2`, `-3`, ...).
 * - Files, reusable contents and the space's variables merge by the same one-side/both-sides rule.
 *
 * The merge itself never stops on a conflict. An update (rebase) answers `result: 'conflicts'`
 * when a page had the same field changed to different values on both sides, or was deleted on
 * one side and changed on the other (`conflictingPages`): the change request's side is kept,
 * and GitBook's editor is where the writer settles it.
 */
import type { FileRec, PageRec, ReusableContentRec, RevisionRec, VariablesRec } from './model';
import { childIdsOf } from './tree';

export interface MergedContent {
  pages: Map<string, PageRec>;
  children: Map<string, readonly string[]>;
  files: Map<string, FileRec>;
  reusableContents: Map<string, ReusableContentRec>;
  variables: VariablesRec;
}

const CONTENT_KEYS = ['type', 'title', 'slug', 'description', 'icon', 'emoji', 'hidden', 'noIndex', 'noRobotsIndex', 'markdown', 'href'] as const;

function sameContent(a: PageRec | undefined, b: PageRec | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    CONTENT_KEYS.every((k) => a[k] === b[k]) &&
    a.pageTarget?.page === b.pageTarget?.page &&
    a.pageTarget?.space === b.pageTarget?.space &&
    JSON.stringify(a.variables) === JSON.stringify(b.variables)
  );
}

function samePage(a: PageRec | undefined, b: PageRec | undefined): boolean {
  return sameContent(a, b) && a?.parentId === b?.parentId;
}

function sameFile(a: FileRec | undefined, b: FileRec | undefined): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return a.name === b.name && a.contentType === b.contentType && a.blobKey === b.blobKey;
}

/** `ours` is main, `theirs` the change request, `base` their common ancestor. */
export function mergeRevisions(base: RevisionRec, ours: RevisionRec, theirs: RevisionRec): MergedContent {
  const pages = new Map<string, PageRec>();
  const ids = new Set([...base.pages.keys(), ...ours.pages.keys(), ...theirs.pages.keys()]);
  for (const id of ids) {
    const merged = mergePage(base.pages.get(id), ours.pages.get(id), theirs.pages.get(id));
    if (merged) pages.set(id, merged);
  }
  reattachOrphans(pages);

  const children = new Map<string, readonly string[]>();
  const members = new Map<string, string[]>();
  for (const page of pages.values()) {
    const parentKey = page.parentId ?? '';
    const list = members.get(parentKey);
    if (list) list.push(page.id);
    else members.set(parentKey, [page.id]);
  }
  for (const [parentKey, memberIds] of members) {
    const parentId = parentKey === '' ? null : parentKey;
    const ordered = orderChildren(memberIds, childIdsOf(base, parentId), childIdsOf(ours, parentId), childIdsOf(theirs, parentId));
    children.set(parentKey, ordered);
    dedupeSlugs(ordered, pages);
  }

  const files = new Map<string, FileRec>();
  for (const id of new Set([...base.files.keys(), ...ours.files.keys(), ...theirs.files.keys()])) {
    const b = base.files.get(id);
    const o = ours.files.get(id);
    const t = theirs.files.get(id);
    const chosen = sameFile(b, t) ? o : t;
    if (chosen) files.set(id, chosen);
  }

  const reusableContents = new Map<string, ReusableContentRec>();
  for (const id of new Set([...base.reusableContents.keys(), ...ours.reusableContents.keys(), ...theirs.reusableContents.keys()])) {
    const b = base.reusableContents.get(id);
    const t = theirs.reusableContents.get(id);
    const chosen = b?.documentId === t?.documentId && b?.title === t?.title ? ours.reusableContents.get(id) : t;
    if (chosen) reusableContents.set(id, chosen);
  }
  const variables = JSON.stringify(base.variables) === JSON.stringify(theirs.variables) ? ours.variables : theirs.variables;
  return { pages, children, files, reusableContents, variables };
}

/** Pages main (`ours`) and the change request (`theirs`) both changed since `base`, in the same field and differently, or one deleted and the other changed. */
export function conflictingPages(base: RevisionRec, ours: RevisionRec, theirs: RevisionRec): string[] {
  const out: string[] = [];
  for (const [id, b] of base.pages) {
    const o = ours.pages.get(id);
    const t = theirs.pages.get(id);
    if (samePage(b, o) || samePage(b, t) || samePage(o, t)) continue;
    if (!o || !t) {
      out.push(id);
      continue;
    }
    const fields = [...CONTENT_KEYS, 'parentId'] as const;
    if (fields.some((k) => b[k] !== o[k] && b[k] !== t[k] && o[k] !== t[k])) out.push(id);
  }
  return out;
}

function mergePage(b: PageRec | undefined, o: PageRec | undefined, t: PageRec | undefined): PageRec | undefined {
  if (samePage(b, t)) return o;
  if (samePage(b, o)) return t;
  if (!t) return undefined; // both changed, the change request deleted it
  if (!o) return t; // both changed, main deleted it: the change request's edit keeps it
  const content = sameContent(b, t) ? o : t;
  const parentId = b && b.parentId === t.parentId ? o.parentId : t.parentId;
  if (content.parentId === parentId) return content;
  return { ...content, parentId, updatedAt: o.updatedAt > t.updatedAt ? o.updatedAt : t.updatedAt };
}

function reattachOrphans(pages: Map<string, PageRec>): void {
  for (const page of [...pages.values()]) {
    if (page.parentId !== null && !pages.has(page.parentId)) pages.set(page.id, { ...page, parentId: null });
  }
  for (const start of [...pages.keys()]) {
    const seen = new Set<string>();
    for (let id: string | null = start; id !== null; id = pages.get(id)?.parentId ?? null) {
      if (seen.has(id)) {
        const page = pages.get(id);
        if (page) pages.set(id, { ...page, parentId: null });
        break;
      }
      seen.add(id);
    }
  }
}

function orderChildren(memberIds: string[], base: readonly string[], ours: readonly string[], theirs: readonly string[]): string[] {
  const theirsReordered = theirs.length !== base.length || theirs.some((id, i) => base[i] !== id);
  const [primary, secondary] = theirsReordered ? [theirs, ours] : [ours, theirs];
  const wanted = new Set(memberIds);
  const out: string[] = [];
  for (const id of [...primary, ...secondary, ...memberIds]) {
    if (wanted.delete(id)) out.push(id);
  }
  return out;
}

function dedupeSlugs(siblings: string[], pages: Map<string, PageRec>): void {
  const used = new Set<string>();
  for (const id of siblings) {
    const page = pages.get(id);
    if (!page) continue;
    let slug = page.slug;
    for (let n = 2; used.has(slug); n++) slug = `${page.slug}-${n}`;
    used.add(slug);
    if (slug !== page.slug) pages.set(id, { ...page, slug });
  }
}
