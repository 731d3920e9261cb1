/**
 * Pages of a change request the reviewer has read, as GitHub's "Viewed" checkbox: a mark keeps a
 * fingerprint of the page's change when it was made (its kind, where it is, its title and its
 * text in the change request), so a later revision that changes the page again clears it — the
 * page then shows as changed since it was viewed. Marks are the reviewer's own and never sent.
 */
import type { Mirror, PageChange } from '../mirror';

export interface ViewedPage {
  pageId: string;
  /** Marked viewed, and unchanged since. */
  viewed: boolean;
  /** Marked viewed, and changed by a later revision since. */
  changedSinceViewed: boolean;
}

export interface ViewedSummary {
  /** The pages the change request changes (as last fetched), each with its mark. */
  pages: ViewedPage[];
  viewed: number;
  total: number;
}

/** What a mark remembers of a page's change. */
function fingerprint(p: PageChange): string {
  return process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(JSON.stringify([p.kind, p.path, p.previousPath, p.title, p.after]))
    .digest('hex');
}

/** The change request's pages with their marks; null while its pages were never fetched. */
export function viewedPages(mirror: Pick<Mirror, 'reviewViews' | 'viewedPages'>, changeRequestId: string): ViewedSummary | null {
  const diff = mirror.reviewViews.changeRequestDiff(changeRequestId);
  if (!diff) return null;
  const marks = mirror.viewedPages.marks(changeRequestId);
  const pages = diff.pages.map((p) => {
    const mark = marks.get(p.pageId);
    const viewed = mark !== undefined && mark === fingerprint(p);
    return { pageId: p.pageId, viewed, changedSinceViewed: mark !== undefined && !viewed };
  });
  return { pages, viewed: pages.filter((p) => p.viewed).length, total: pages.length };
}

/** Marks a page of the change request viewed (as it is now), or not; throws when the change request does not change it. */
export function markViewed(
  mirror: Pick<Mirror, 'reviewViews' | 'transaction' | 'viewedPages'>,
  changeRequestId: string,
  pageId: string,
  viewed: boolean,
  now = new Date().toISOString(),
): ViewedSummary {
  const page = mirror.reviewViews.changeRequestDiff(changeRequestId)?.pages.find((p) => p.pageId === pageId);
  if (!page) throw new Error(`Page ${pageId} is not one the change request changes (as last fetched).`);
  mirror.transaction(() => {
    if (viewed) mirror.viewedPages.mark(changeRequestId, pageId, fingerprint(page), now);
    else mirror.viewedPages.unmark(changeRequestId, pageId);
  });
  return viewedPages(mirror, changeRequestId)!;
}
