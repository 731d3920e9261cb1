/**
 * Places in the app a view (or a host) can send the user to, as hash routes: one value type,
 * one way to write it, one way to read it back, so views agree without importing each other.
 *
 * `pages.open` is the Pages view's route, `#pages/<spaceId>/<path>`, path relative to the space
 * folder: the Pages view, its tree, the page links the host renders into a page (which may add
 * `#<anchor>`, read here as no part of the route) and the search box all write it this way.
 * `history.page` may name a moment, `#history/<spaceId>/<page key>/<ISO time>`: the History view
 * then shows what the version recorded then changed (the sync log opens a page's diff so).
 * `review.list` is one of the Review view's lists (`#review/inbox`, `#review/comments`…);
 * `review.changeRequest` opens a change request there.
 */
export type Route =
  | { name: 'pages.open'; spaceId: string; path: string }
  | { name: 'review.comment'; spaceId: string; commentId: string }
  | { name: 'review.list'; list: ReviewList }
  | { name: 'review.changeRequest'; spaceId: string; changeRequestId: string }
  | { name: 'history.page'; spaceId: string; pageKey: string; at?: string };

/** The Review view's lists: what asks for you, unresolved comments, open change requests, your own by topic. */
export type ReviewList = 'inbox' | 'comments' | 'change-requests' | 'yours';
export const REVIEW_LISTS: readonly ReviewList[] = ['inbox', 'comments', 'change-requests', 'yours'];

const enc = encodeURIComponent;

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'pages.open':
      return `#pages/${enc(route.spaceId)}/${enc(route.path)}`;
    case 'review.comment':
      return `#review/comment/${enc(route.spaceId)}/${enc(route.commentId)}`;
    case 'review.list':
      return `#review/${route.list}`;
    case 'review.changeRequest':
      return `#review/change-request/${enc(route.spaceId)}/${enc(route.changeRequestId)}`;
    case 'history.page':
      return `#history/${enc(route.spaceId)}/${enc(route.pageKey)}${route.at ? `/${enc(route.at)}` : ''}`;
  }
}

/** The route a hash names, or null (a plain `#view`, or anything malformed); a trailing `#anchor` is ignored. */
export function parseRoute(hash: string): Route | null {
  let parts: string[];
  try {
    // Every part is encoded, so a `#` after the first can only start an anchor.
    parts = hash.replace(/^#\/?/, '').split('#')[0]!.split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  const [view, a, b, c] = parts;
  if (view === 'pages' && a && b && parts.length === 3) return { name: 'pages.open', spaceId: a, path: b };
  if (view === 'history' && a && b && parts.length === 3) return { name: 'history.page', spaceId: a, pageKey: b };
  if (view === 'history' && a && b && c && parts.length === 4) return { name: 'history.page', spaceId: a, pageKey: b, at: c };
  if (view === 'review' && parts.length === 2 && REVIEW_LISTS.includes(a as ReviewList)) return { name: 'review.list', list: a as ReviewList };
  if (view === 'review' && a === 'change-request' && b && c && parts.length === 4) return { name: 'review.changeRequest', spaceId: b, changeRequestId: c };
  if (view === 'review' && a === 'comment' && b && c && parts.length === 4) return { name: 'review.comment', spaceId: b, commentId: c };
  return null;
}
