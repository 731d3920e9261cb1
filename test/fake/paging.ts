/**
 * Listing pages: `{ items, count, next?: { page } }`. The `page` token is opaque to clients
 * (an encoded offset); `count` is the total number of items across all pages.
 */
import { ApiError } from './errors';

export interface PageRequest {
  page?: string;
  limit?: number;
}

export function paginate<T, J>(
  all: readonly T[],
  request: PageRequest,
  defaultLimit: number,
  toJson: (item: T) => J,
): {
  items: J[];
  count: number;
  next?: { page: string };
} {
  const limit = request.limit === undefined || request.limit <= 0 ? defaultLimit : Math.min(1000, Math.floor(request.limit));
  const offset = request.page === undefined ? 0 : decodeToken(request.page);
  const end = offset + limit;
  return {
    items: all.slice(offset, end).map(toJson),
    count: all.length,
    ...(end < all.length ? { next: { page: encodeToken(end) } } : {}),
  };
}

function encodeToken(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function decodeToken(token: string): number {
  const match = /^offset:(\d+)$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match) throw new ApiError(400, `page token "${token}" is not one this API issued; pass the value of next.page from the previous answer`);
  return Number(match[1]);
}
