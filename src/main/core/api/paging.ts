/** One page of a paged list, as the API returns it. */
export interface Page<T> {
  items: T[];
  next?: { page: string };
}

/** Yields every item, fetching the next page (by its `next.page` token) only when the previous one is used up. */
export async function* followPages<T>(fetchPage: (page: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  const seen = new Set<string>();
  let page: string | undefined;
  do {
    const result = await fetchPage(page);
    yield* result.items;
    page = result.next?.page || undefined;
    if (page !== undefined) {
      if (seen.has(page)) {
        throw new Error(`The API returned the page token "${page}" twice; stopped paging to avoid an endless loop.`);
      }
      seen.add(page);
    }
  } while (page !== undefined);
}
