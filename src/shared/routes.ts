/**
 * Places in the app a view (or a host) can send the user to, as hash routes: one value type,
 * one way to write it, one way to read it back, so views agree without importing each other.
 *
 * `pages.open` is the Pages view's route (the name agreed with it): `#pages/<spaceId>/<key>`,
 * key the page id or `new:<path>` for a file not yet a page. Until the app has a Pages view,
 * the History view answers it (the page with its versions).
 */
export type Route =
  | { name: 'pages.open'; spaceId: string; pageKey: string }
  | { name: 'review.comment'; spaceId: string; commentId: string }
  | { name: 'history.page'; spaceId: string; pageKey: string };

const enc = encodeURIComponent;

export function routeHash(route: Route): string {
  switch (route.name) {
    case 'pages.open':
      return `#pages/${enc(route.spaceId)}/${enc(route.pageKey)}`;
    case 'review.comment':
      return `#review/comment/${enc(route.spaceId)}/${enc(route.commentId)}`;
    case 'history.page':
      return `#history/${enc(route.spaceId)}/${enc(route.pageKey)}`;
  }
}

/** The route a hash names, or null (a plain `#view`, or anything malformed). */
export function parseRoute(hash: string): Route | null {
  let parts: string[];
  try {
    parts = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  } catch {
    return null;
  }
  const [view, a, b, c] = parts;
  if (view === 'pages' && a && b && parts.length === 3) return { name: 'pages.open', spaceId: a, pageKey: b };
  if (view === 'history' && a && b && parts.length === 3) return { name: 'history.page', spaceId: a, pageKey: b };
  if (view === 'review' && a === 'comment' && b && c && parts.length === 4) return { name: 'review.comment', spaceId: b, commentId: c };
  return null;
}
