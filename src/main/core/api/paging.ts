import type { RequestDescription } from './errors';
import { clipText } from '../../../shared/clip-text';

/** One page of a paged list, as the API returns it. */
export interface Page<T> {
  items: T[];
  next?: { page: string };
}

export interface PagingBounds {
  /** Most pages followed in one list. */
  maxPages: number;
  /** The error to stop with, naming the request whose answer gave the problem. */
  fail: (where: RequestDescription | undefined, problem: string) => Error;
}

/**
 * Yields every item, fetching the next page (by its `next.page` token) only when the previous one
 * is used up. A list that does not end stops with `fail`: more than `maxPages` pages, a token
 * given twice, or an item (by id) that an earlier page already listed — a server handing out
 * fresh tokens forever is caught by the first, one going round in circles by the last two.
 */
export async function* followPages<T>(
  fetchPage: (token: string | undefined) => Promise<{ page: Page<T>; where: RequestDescription | undefined }>,
  { maxPages, fail }: PagingBounds,
): AsyncGenerator<T> {
  const tokens = new Set<string>();
  const ids = new Set<string>();
  let token: string | undefined;
  for (let n = 1; ; n++) {
    const { page, where } = await fetchPage(token);
    for (const item of page.items) {
      const id = (item as { id?: unknown } | null)?.id;
      if (typeof id !== 'string') continue;
      if (ids.has(id)) throw fail(where, `page ${n} of the list repeats “${clip(id)}”, which an earlier page already listed`);
      ids.add(id);
    }
    yield* page.items;
    token = page.next?.page || undefined;
    if (token === undefined) return;
    if (tokens.has(token)) throw fail(where, `page ${n} of the list points to a next page the list already had`);
    tokens.add(token);
    if (n >= maxPages) throw fail(where, `the list goes on past ${maxPages} pages (${ids.size} items so far), more than Quire follows`);
  }
}

/** A server's id, shortened for a message. */
const clip = (id: string): string => clipText(id, 41);
