/**
 * A stateful, in-memory fake of the docs-hosting API (GitBook API v1 wire format), validated
 * against the official OpenAPI document in both directions.
 *
 *   const fake = await startFakeApi();
 *   const org = fake.store.addOrg({ title: 'Acme' });
 *   const space = fake.store.addSpace(org.id, { title: 'Docs', pages: [{ title: 'Intro', markdown: 'Hi' }] });
 *   // point a client at `${fake.url}/v1` with `Authorization: Bearer ${fake.token}`
 *   await fake.close();
 *
 * GitBook's markdown model (stable references, frontmatter, title heading) is off by default:
 * `startFakeApi({ markdown: GITBOOK_MARKDOWN })`, or switch settings on `fake.markdown`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { Faults, type RateLimit } from './faults';
import { createPipeline, type PipelineStats, type RequestLogEntry } from './pipeline';
import { trackFake } from './registry';
import { accountRoutes } from './routes/account';
import { changeRequestRoutes } from './routes/change-requests';
import { commentRoutes } from './routes/comments';
import { contentRoutes } from './routes/content';
import { openapiSpecRoutes } from './routes/openapi-specs';
import { reviewRoutes } from './routes/reviews';
import { siteRoutes } from './routes/sites';
import { translationRoutes } from './routes/translations';
import type { RouteTable } from './routes/types';
import { Serializer } from './serialize';
import type { MarkdownSettings } from './markdown-settings';
import { FakeStore, type StoreOptions } from './store';

export { Faults, type RateLimit, type RequestMatcher } from './faults';
export type { RequestLogEntry, PipelineStats } from './pipeline';
export {
  FakeStore,
  NotFoundError,
  InvalidRequestError,
  BatchError,
  ContentError,
  type PageSeed,
  type EditTarget,
  type SiteSeed,
  type SectionSeed,
  type SiteSpaceSeed,
  type ContentChange,
  type PagePatch,
} from './store';
export type * from './model';
export { FakeReviews } from './reviews';
export { FakeOpenAPISpecs, type OpenAPISpecRec, type OpenAPISpecSeed } from './openapi-specs';
export { FakeTranslations, type TranslationRec, type TranslationSeed } from './translations';
export { DEFAULT_MARKDOWN, GITBOOK_MARKDOWN, type MarkdownSettings } from './markdown-settings';
export { parseStableRef, formatStableRef, type StableRef } from './stable-refs';

export interface FakeApiOptions extends StoreOptions {
  /** Delay before every answer, in ms (also settable later through `faults.latencyMs`). */
  latencyMs?: number;
  rateLimit?: RateLimit;
  /** Default number of items per listing page (clients may pass `limit` up to 1000). Default 50. */
  pageSize?: number;
  /** The bearer token the fake accepts. Default `fake-token`. */
  token?: string;
  /** The port on 127.0.0.1 (the demos keep a folder's address across runs). Default 0, any free port: what tests use. */
  port?: number;
}

export interface FakeApi {
  /** Origin, e.g. `http://127.0.0.1:43123`; API routes live under `${url}/v1`. */
  readonly url: string;
  readonly token: string;
  readonly store: FakeStore;
  readonly faults: Faults;
  /** How page markdown is stored and served; mutable at run time (same object as `store.markdown`). */
  readonly markdown: MarkdownSettings;
  /** Every request received, in order of completion, with its final status (0 = dropped). */
  readonly requests: RequestLogEntry[];
  resetLog(): void;
  /** Spec violations recorded so far (bad requests, unknown routes, answers that break the spec). */
  readonly violations: string[];
  /** Returns and clears the recorded violations (for tests that provoke them on purpose). */
  takeViolations(): string[];
  /** Time spent validating vs handling, for overhead measurements. */
  readonly stats: PipelineStats;
  /** Stops listening, keeping all it holds: its port refuses connections, as an API that went away. */
  stop(): Promise<void>;
  /** Listens again on the same port after `stop`: the API is back, as it was. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

const ROUTES: RouteTable = {
  ...accountRoutes,
  ...contentRoutes,
  ...changeRequestRoutes,
  ...commentRoutes,
  ...reviewRoutes,
  ...siteRoutes,
  ...openapiSpecRoutes,
  ...translationRoutes,
};

export async function startFakeApi(options: FakeApiOptions = {}): Promise<FakeApi> {
  const store = new FakeStore(options);
  const faults = new Faults();
  faults.latencyMs = options.latencyMs ?? 0;
  faults.rateLimit = options.rateLimit;
  const token = options.token ?? 'fake-token';
  const requests: RequestLogEntry[] = [];
  const violations: string[] = [];
  const stats: PipelineStats = { handled: 0, validationMs: 0, handlerMs: 0 };
  let closed = false;
  const sleepers = new Set<{ timer: NodeJS.Timeout; resolve: (completed: boolean) => void }>();
  const delay = (ms: number): Promise<boolean> =>
    new Promise((resolve) => {
      if (closed) return resolve(false);
      const sleeper = {
        timer: setTimeout(() => {
          sleepers.delete(sleeper);
          resolve(true);
        }, ms),
        resolve,
      };
      sleepers.add(sleeper);
    });

  // Idle keep-alive sockets outlive typical client pools (undici: 4 s), so a client never
  // reuses a socket the server is closing at that instant (a spurious ECONNRESET).
  const server: Server = createServer();
  server.keepAliveTimeout = 60_000;
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  server.on(
    'request',
    createPipeline({
      origin,
      token,
      store,
      json: new Serializer(origin, store),
      faults,
      routes: ROUTES,
      pageSize: options.pageSize ?? 50,
      requests,
      violations,
      stats,
      delay,
    }),
  );

  const tracked = { url: origin, violations, closed: false };
  trackFake(tracked);

  return {
    url: origin,
    token,
    store,
    faults,
    markdown: store.markdown,
    requests,
    resetLog: () => {
      requests.length = 0;
    },
    violations,
    takeViolations: () => violations.splice(0),
    stats,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    restart: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    close: async () => {
      if (closed) return;
      closed = true;
      tracked.closed = true;
      for (const sleeper of sleepers) {
        clearTimeout(sleeper.timer);
        sleeper.resolve(false);
      }
      sleepers.clear();
      if (!server.listening) return;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}
