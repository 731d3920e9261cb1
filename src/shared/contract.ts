/**
 * The one typed contract between the renderer and whichever host runs it
 * (Electron over IPC, the web host over a WebSocket): request names with their
 * parameter schemas and result types, pushed events, view models and errors.
 * The renderer imports only this folder.
 */
import * as s from './schema';
import type { Infer, Schema } from './schema';
import type {
  SessionVM,
  CatalogVM,
  HostKind,
  SettingsVM,
  SyncStatusVM,
  ConflictVM,
  LogEntryVM,
  CommentVM,
  ThreadVM,
  ChangeRequestVM,
  ChangeRequestDetailVM,
  SiteVM,
  TranslationVM,
  SpacePagesVM,
  PageDetailVM,
  RenderedDiffVM,
  SearchResultVM,
  HistoryPageVM,
  PageHistoryVM,
  VersionTextVM,
  RestoreResultVM,
  OpenedVM,
  RestoredDeletedVM,
  ActOutcomeVM,
  FinishedReviewVM,
  PendingReviewVM,
  AppliedSuggestionVM,
  InboxItemVM,
  ReviewStateVM,
  ReviewVM,
  MemberVM,
  SpaceTargetVM,
} from './view-models';
import { LOG_KINDS, SEARCH_KIND_VALUES } from './view-models';
import { clipText } from './clip-text';

// View models live in view-models.ts; they are part of this contract.
export type * from './view-models';
export { INBOX_GROUPS, LOG_KINDS } from './view-models';
export { needsYou, SYNC_STATE_WORDS } from './sync-state';

// -------------------------------------------------------------------- errors

export type ErrorCode =
  | 'invalid-request'
  | 'signed-out'
  | 'token-rejected'
  | 'offline'
  | 'not-found'
  | 'forbidden'
  | 'keychain-unavailable'
  | 'unsupported'
  | 'busy'
  | 'disconnected'
  | 'internal';

export interface ErrorVM {
  code: ErrorCode;
  /** What happened and what to do, in one or two sentences. */
  message: string;
}

/** An error a host reports for a request; carried over the wire as an ErrorVM. */
export class QuireError extends Error implements ErrorVM {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'QuireError';
  }

  toJSON(): ErrorVM {
    return { code: this.code, message: this.message };
  }
}

// ------------------------------------------------------------------ requests

/** Pairs a runtime parameter schema with a result type known only to the compiler. */
interface RequestDef<P, R> {
  params: Schema<P>;
  /** Phantom: never read at runtime. */
  result?: R;
}

const req =
  <R>() =>
  <P>(params: Schema<P>): RequestDef<P, R> => ({ params });
const none = s.object({});

const spaceRef = { spaceId: s.id() };
const crRef = { spaceId: s.id(), changeRequestId: s.id() };
const commentRef = { spaceId: s.id(), commentId: s.id(), changeRequestId: s.optional(s.id()) };
const markdown = s.string({ min: 1, max: 100_000 });
/** A page id, or `new:<path>` for a file not yet a page: printable, no control characters. */
const pageKey = s.string({ min: 1, max: 4200, pattern: /^\P{Cc}+$/u });
const pageRef = { spaceId: s.id(), pageKey };
const versionNumber = s.number({ min: 1, max: Number.MAX_SAFE_INTEGER, integer: true });

const REQUESTS = {
  'session.get': req<SessionVM>()(none),
  'session.signIn': req<SessionVM>()(
    s.object({
      apiUrl: s.string({ min: 1, max: 2048, pattern: /^https?:\/\/[^\s]+$/ }),
      token: s.string({ min: 1, max: 4096, pattern: /^\S+$/ }),
    }),
  ),
  'session.signOut': req<SessionVM>()(none),

  'settings.get': req<SettingsVM>()(none),
  'settings.update': req<SettingsVM>()(s.object({ folder: s.optional(s.string({ min: 1, max: 4096 })), notifications: s.optional(s.boolean()) })),
  'settings.chooseFolder': req<SettingsVM>()(none),

  'catalog.get': req<CatalogVM>()(none),
  'catalog.refresh': req<CatalogVM>()(none),
  'spaces.select': req<CatalogVM>()(s.object({ spaceIds: s.array(s.id(), { max: 5000 }), selected: s.boolean() })),

  'sync.status': req<SyncStatusVM>()(none),
  'sync.now': req<SyncStatusVM>()(none),
  'sync.setPaused': req<SyncStatusVM>()(s.object({ paused: s.boolean() })),

  'conflicts.list': req<ConflictVM[]>()(none),
  'conflicts.resolve': req<ConflictVM[]>()(s.object({ ...spaceRef, path: s.string({ min: 1, max: 4096 }), choice: s.oneOf(['mine', 'theirs'] as const) })),
  'conflicts.openInEditor': req<OpenedVM>()(s.object({ ...spaceRef, path: s.string({ min: 1, max: 4096 }) })),

  'review.attention': req<ChangeRequestVM[]>()(none),
  'review.comments': req<CommentVM[]>()(
    s.object({
      spaceId: s.optional(s.id()),
      changeRequestId: s.optional(s.id()),
      authorId: s.optional(s.id()),
      pageId: s.optional(s.id()),
      text: s.optional(s.string({ max: 200 })),
    }),
  ),
  'review.changeRequest': req<ChangeRequestDetailVM>()(s.object(crRef)),
  'review.thread': req<ThreadVM>()(s.object({ spaceId: s.id(), commentId: s.id() })),
  'review.reply': req<void>()(s.object({ ...commentRef, markdown })),
  'review.react': req<void>()(s.object({ ...commentRef, replyId: s.optional(s.id()), emoji: s.string({ min: 1, max: 50 }), remove: s.optional(s.boolean()) })),
  'review.resolve': req<void>()(s.object(commentRef)),
  'review.reopen': req<void>()(s.object(commentRef)),
  'review.setSubject': req<void>()(s.object({ ...crRef, subject: s.string({ min: 1, max: 100 }) })),
  'review.setStatus': req<void>()(s.object({ ...crRef, status: s.oneOf(['draft', 'open', 'archived'] as const) })),
  /** Needs the server's answer (never queued): an `offline` error when the API cannot be reached, the server's reason when it refuses. */
  'review.updateFromMain': req<void>()(s.object(crRef)),
  /**
   * Only by this request, never by sync; needs the server's answer, as `review.updateFromMain`. Held back
   * (`invalid-request`) while the detail's `mergeHolds` has any, unless `force`: never past the server's rules.
   */
  'review.merge': req<void>()(s.object({ ...crRef, force: s.optional(s.boolean()) })),
  'review.setDescription': req<ActOutcomeVM>()(s.object({ ...crRef, markdown: s.string({ max: 100_000 }) })),

  /** What asks something of the user, unread first. */
  'review.inbox': req<InboxItemVM[]>()(none),
  /** Pins an inbox item (its key) first in its group, or unpins it. */
  'review.pin': req<void>()(s.object({ key: s.string({ min: 1, max: 200 }), pinned: s.boolean() })),
  /** Snoozes an inbox item until `until` (ISO) or, without it, until it changes; `off` brings it back. */
  'review.snooze': req<void>()(
    s.object({
      key: s.string({ min: 1, max: 200 }),
      until: s.optional(s.string({ min: 10, max: 40, pattern: /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z$/ })),
      off: s.optional(s.boolean()),
    }),
  ),
  /** Marks inbox items read (all of them when `keys` is left out). */
  'review.markRead': req<void>()(s.object({ keys: s.optional(s.array(s.string({ min: 1, max: 200 }), { max: 5000 })) })),
  /** Puts away a refused action once its reason is read (or withdraws one not sent yet). */
  'review.dismiss': req<void>()(s.object({ actionId: s.id() })),
  /** When review data was last refreshed, and what waits or was refused. */
  'review.state': req<ReviewStateVM>()(none),
  /** Refresh now (when the Review view opens): sends what is queued, then refreshes; offline it answers with the state as it is. */
  'review.refresh': req<ReviewStateVM>()(none),
  /**
   * Starts a comment: on a page of main (`pageId`), on a change request, on a page of one, or on a
   * `line` of that page (its file in the change request: the comment goes on the block holding
   * it). Sent at once online, queued offline.
   */
  'review.newComment': req<ActOutcomeVM>()(
    s.object({
      spaceId: s.id(),
      changeRequestId: s.optional(s.id()),
      pageId: s.optional(s.id()),
      line: s.optional(s.number({ min: 1, max: 10_000_000, integer: true })),
      markdown,
    }),
  ),
  /** Writes a comment's suggested change into the writer's file (the next sync pushes it), then resolves its thread with a reply saying so. */
  'review.applySuggestion': req<AppliedSuggestionVM>()(s.object(commentRef)),
  /** Edits one's own comment, or reply (`replyId`). */
  'review.editComment': req<ActOutcomeVM>()(s.object({ ...commentRef, replyId: s.optional(s.id()), markdown })),
  /** Deletes one's own comment, or reply (`replyId`). */
  'review.deleteComment': req<ActOutcomeVM>()(s.object({ ...commentRef, replyId: s.optional(s.id()) })),
  /** Approves or requests changes, with an optional comment; needs the server's answer. */
  'review.submitReview': req<ReviewVM>()(
    s.object({ ...crRef, status: s.oneOf(['approved', 'changes-requested'] as const), markdown: s.optional(s.string({ max: 100_000 })) }),
  ),
  /** Opens a pending review: comments on the change request are kept here (`inPendingReview`) until it is finished. */
  'review.startReview': req<PendingReviewVM>()(s.object(crRef)),
  /** Drops the pending review and its comments; nothing of it was sent. */
  'review.discardReview': req<void>()(s.object(crRef)),
  /** Sends the pending review's comments in order, then the verdict (`comment`: no verdict); needs the server's answer. */
  'review.finishReview': req<FinishedReviewVM>()(
    s.object({ ...crRef, verdict: s.oneOf(['approved', 'changes-requested', 'comment'] as const), markdown: s.optional(s.string({ max: 100_000 })) }),
  ),
  /** Marks a page of the change request viewed (until a later revision changes it), or not. */
  'review.setViewed': req<void>()(s.object({ ...crRef, pageId: s.id(), viewed: s.boolean() })),
  /** Asks an organization member to review: `user` is an id, an email or a display name. */
  'review.requestReviewer': req<ActOutcomeVM>()(s.object({ ...crRef, user: s.string({ min: 1, max: 320 }) })),
  'review.removeReviewer': req<ActOutcomeVM>()(s.object({ ...crRef, userId: s.id() })),
  /** The members of the space's organization (listed when online, else as last listed), for choosing reviewers. */
  'review.members': req<MemberVM[]>()(s.object(spaceRef)),
  /** Which change request receives each synced space's edits. */
  'review.targets': req<SpaceTargetVM[]>()(none),
  /** The space's next pushes go into a new change request (created at once with a subject when online). */
  'review.startChangeRequest': req<SpaceTargetVM>()(s.object({ ...spaceRef, subject: s.optional(s.string({ min: 1, max: 100 })) })),
  /** The space's pushes go into this open change request of the user's. */
  'review.useChangeRequest': req<SpaceTargetVM>()(s.object(crRef)),

  'log.list': req<LogEntryVM[]>()(
    s.object({
      kind: s.optional(s.oneOf(LOG_KINDS)),
      spaceId: s.optional(s.id()),
      text: s.optional(s.string({ max: 200 })),
      limit: s.optional(s.number({ min: 1, max: 5000, integer: true })),
    }),
  ),

  'sites.list': req<SiteVM[]>()(none),
  /** The organizations' translations, as last listed (every review refresh lists them, beside sites). */
  'translations.list': req<TranslationVM[]>()(none),
  /** Asks GitBook to run a translation again; needs the server's answer (never queued). Answers with its status now. */
  'translations.run': req<TranslationVM>()(s.object({ organizationId: s.id(), translationId: s.id() })),

  /** Each synced space's page tree, with each page's sync state. */
  'pages.tree': req<SpacePagesVM[]>()(none),
  /** One page, rendered, with its check problems, unresolved comments and sync state. */
  'pages.get': req<PageDetailVM>()(s.object({ ...spaceRef, path: s.string({ min: 1, max: 4096 }) })),
  /** Shows a page in the Pages view from outside it: the host emits `pages.opened`. Give its id or its path. */
  'pages.open': req<void>()(s.object({ ...spaceRef, pageId: s.optional(s.id()), path: s.optional(s.string({ min: 1, max: 4096 })) })),
  'pages.openInEditor': req<OpenedVM>()(s.object({ ...spaceRef, path: s.string({ min: 1, max: 4096 }) })),
  /** A page of a change request's diff, before and after, rendered. */
  'review.renderedDiff': req<RenderedDiffVM>()(s.object({ ...crRef, pageId: s.id() })),

  /** Pages and comments, offline; `query` in FTS5 syntax (anything else is taken as plain words). */
  'search.query': req<SearchResultVM[]>()(
    s.object({
      query: s.string({ min: 1, max: 500 }),
      spaceId: s.optional(s.id()),
      kinds: s.optional(s.array(s.oneOf(SEARCH_KIND_VALUES), { max: 3 })),
      limit: s.optional(s.number({ min: 1, max: 100, integer: true })),
    }),
  ),
  /** Pages with kept versions, latest change first (deleted pages too). */
  'history.pages': req<HistoryPageVM[]>()(
    s.object({ spaceId: s.optional(s.id()), text: s.optional(s.string({ max: 200 })), limit: s.optional(s.number({ min: 1, max: 2000, integer: true })) }),
  ),
  'history.versions': req<PageHistoryVM>()(s.object(pageRef)),
  'history.text': req<VersionTextVM>()(s.object({ ...pageRef, version: versionNumber })),
  /** Writes a version back into the folder (the next sync pushes it); the file's current text is kept first. */
  'history.restore': req<RestoreResultVM>()(s.object({ ...pageRef, version: versionNumber })),
  /** Puts back, from history, every page file deleted here in a space (one click for a mass-delete stop); then syncs. */
  'history.restoreDeleted': req<RestoredDeletedVM>()(s.object(spaceRef)),

  'app.openExternal': req<void>()(s.object({ url: s.string({ min: 1, max: 4096 }) })),
  'app.openFolder': req<OpenedVM>()(s.object({ spaceId: s.optional(s.id()) })),
} as const;

export type RequestName = keyof typeof REQUESTS;
export type Params<N extends RequestName> = Infer<(typeof REQUESTS)[N]['params']>;
export type Result<N extends RequestName> = (typeof REQUESTS)[N] extends RequestDef<unknown, infer R> ? R : never;
export const REQUEST_NAMES = Object.keys(REQUESTS) as RequestName[];

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(REQUESTS, name);
}

/** Checks a request name and its parameters, throwing `QuireError('invalid-request')` with the reason. */
function parseRequest(name: unknown, params: unknown): { name: RequestName; params: Params<RequestName> } {
  if (!isRequestName(name)) throw new QuireError('invalid-request', `Unknown request ${clipText(JSON.stringify(String(name)), 80)}.`);
  try {
    return { name, params: REQUESTS[name].params.parse(params) as Params<RequestName> };
  } catch (e) {
    if (e instanceof s.SchemaError) throw new QuireError('invalid-request', `Request ${name} was refused: ${e.message}.`);
    throw e;
  }
}

// -------------------------------------------------------------------- events

export type DataArea = 'catalog' | 'conflicts' | 'review' | 'log' | 'sites' | 'settings' | 'history';

export interface EventMap {
  'sync.status': SyncStatusVM;
  'session.changed': SessionVM;
  /** Something the views show changed in the mirror: re-read these areas. */
  'data.changed': { areas: DataArea[] };
  /** Show this page in the Pages view (answer to `pages.open`). */
  'pages.opened': { spaceId: string; path: string };
}

export type EventName = keyof EventMap;
export type PushedEvent = { [N in EventName]: { name: N; payload: EventMap[N] } }[EventName];
// ------------------------------------------------------------ wire envelopes

/** What a host answers for a request: never a thrown error across the boundary. */
export type Outcome<R> = { ok: true; result: R } | { ok: false; error: ErrorVM };

/** WebSocket frames (the IPC host uses `invoke` for requests and one event channel). */
export type ClientFrame = { type: 'request'; id: number; name: RequestName; params: unknown };
export type ServerFrame = ({ type: 'response'; id: number } & Outcome<unknown>) | { type: 'event'; event: PushedEvent } | { type: 'hello'; host: HostKind };

/** IPC channel names: every request has its own `quire:`-prefixed channel. */
export const IPC_PREFIX = 'quire:';
export const IPC_EVENT_CHANNEL = 'quire:event';
export const ipcChannel = (name: RequestName): string => `${IPC_PREFIX}${name}`;

/** What the Electron preload exposes on `window.quire`. */
export interface PreloadApi {
  request(name: RequestName, params: unknown): Promise<Outcome<unknown>>;
  onEvent(listener: (event: PushedEvent) => void): () => void;
}

/** A host-side implementation of the contract (see src/main/hosts/service/). */
export interface ContractService {
  request<N extends RequestName>(name: N, params: Params<N>): Promise<Result<N>>;
  subscribe(listener: (event: PushedEvent) => void): () => void;
}

/** Converts anything thrown by a service into a wire error a person can act on. */
function toErrorVM(e: unknown): ErrorVM {
  if (e instanceof QuireError) return { code: e.code, message: e.message };
  const message = e instanceof Error ? e.message : String(e);
  return { code: 'internal', message: `Something went wrong inside Quire: ${message}. Try again; if it keeps happening, check the sync log.` };
}

/**
 * Validates and runs one request against a service, turning every failure into
 * an Outcome. Both hosts call this, so a payload is checked the same way
 * whether it came over IPC or the WebSocket.
 */
export async function dispatch(service: ContractService, name: unknown, params: unknown): Promise<Outcome<unknown>> {
  try {
    const parsed = parseRequest(name, params);
    const result = await service.request(parsed.name, parsed.params as never);
    return { ok: true, result: result ?? null };
  } catch (e) {
    return { ok: false, error: toErrorVM(e) };
  }
}
