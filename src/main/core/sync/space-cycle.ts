/** What one space's cycle (space-sync.ts) works with: its context, what it sees before it plans, what it reports. */
import type { ApiClient } from '../api';
import type { NameRules } from '../naming';
import type { ExtrasRecord } from './extras-record';
import type { LinkResolver } from './link-targets';
import type { PushStore } from './outbox';
import type { OwnWrites } from './own-writes';
import type { HeldDeletes } from './plan';
import type { ProgressListener } from './progress';
import type { ChangeRequestInfo, PushContext } from './push';
import type { RebuiltRecord } from './rebuild';
import type { RemoteDiff, RemoteTree } from './remote';
import type { SpaceReport } from './report';
import type { ScanResult } from './scan';
import type { Mirror } from '../mirror';

export interface SpaceSyncContext {
  api: ApiClient;
  mirror: Mirror;
  root: string;
  links: LinkResolver;
  allowMassDelete: boolean;
  push: boolean;
  dryRun: boolean;
  pushGuard?: (text: string, path: string) => string | null;
  /** What the folder's volume holds in a name. */
  names: NameRules;
  /** Lay every folder out again (the folder was laid out under other rules, or by an older Quire). */
  fullLayout: boolean;
  /** Pages (by space id) whose files the writer asked to move to GitBook's path. */
  toGitbook?: ReadonlyMap<string, ReadonlySet<string>>;
  /** Pages (by space id) whose deletes the writer lets through by name. */
  allowDeletes?: ReadonlyMap<string, ReadonlySet<string>>;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  ownWrites?: OwnWrites;
}

export interface SyncSpace {
  id: string;
  title: string;
  folder: string;
  syncedRevision: string | null;
  remoteRevision: string;
}

/** What this space's cycle changed that files of other spaces may link to. */
export interface Touched {
  spaceId: string;
  /** Pages whose file moved, appeared or went away. */
  keys: string[];
  /** The whole space is new here (its first sync): every link to it may change. */
  firstSync: boolean;
}

/** One space's cycle: what every step reads, and what it reports. */
export interface SpaceCycle {
  ctx: SpaceSyncContext;
  space: SyncSpace;
  spaceDir: string;
  stagingDir: string;
  store: PushStore;
  pushCtx: PushContext;
  startedAt: string;
  report: SpaceReport;
  touched: Touched;
  /** Assets this cycle wrote from the server. */
  pulledAssets: string[];
  /** What an earlier cycle's mass-delete stop holds (plan/fail-safe.ts). */
  held: HeldDeletes | undefined;
}

/** What the cycle sees before it plans. */
export interface Seen {
  /** The folder has no tree recorded yet (a first sync here, or a lost mirror). */
  firstSync: boolean;
  changeRequest: ChangeRequestInfo;
  /** Main now, when it moved (or on a first sync, or once the change request is merged). */
  remote: RemoteNow | null;
  scan: ScanResult;
  /** A lost record a dry run found again, not written (it plans as if it were: dryRunSpace). */
  rebuilt: RebuiltRecord | null;
  /** The space's includes and variables file as the writer left them (space-extras.ts). */
  extras: ExtrasRecord;
}

export interface RemoteNow {
  tree: RemoteTree;
  diff: RemoteDiff;
  /** Texts fetched for the planner's decisions. */
  bodies: Map<string, string>;
}
