import type { Serializer } from '../serialize';
import type { FakeStore } from '../store';

/** What a route handler receives: validated, coerced inputs and the fake's state. */
export interface RouteContext {
  params: Record<string, string>;
  /** A path parameter the matched template declares (throws if it does not). */
  param(name: string): string;
  /** Query parameters coerced to their declared types, with spec defaults filled in. */
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  /** Parsed JSON body (already validated against the operation's schema), or undefined. */
  body: any; // validated against the operation's schema before the handler runs
  store: FakeStore;
  json: Serializer;
  /** Default listing page size. */
  pageSize: number;
  /** Resolves a URL of this fake's blob route to the bytes it serves. */
  blobForUrl(url: string): { bytes: Buffer; contentType: string } | undefined;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export type Handler = (ctx: RouteContext) => Reply;

/** Handlers keyed by the spec's operationId. */
export type RouteTable = Record<string, Handler>;

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const created = (body: unknown): Reply => ({ status: 201, body });
export const noContent = (): Reply => ({ status: 204 });
