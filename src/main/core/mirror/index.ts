/**
 * The local SQLite mirror of a sync folder: what every host reads, and the one owner of
 * storage. Each store keeps its tables and row shapes; nothing outside this folder writes SQL.
 * Every state change of the engine happens inside `transaction`.
 */
import { CatalogStore } from './catalog';
import { ContentStore } from './content';
import { CorruptMirrorError, isCorruptionError, notADatabase, type SetAside, setAsideCorrupt } from './corrupt';
import { type Db, openDatabase } from './database';
import { FolderStore } from './folder';
import { HistoryStore } from './history';
import { SyncLog } from './log';
import { OutboxStore } from './outbox';
import { ReviewActionLog } from './review/action-log';
import { ReviewQueries } from './review/queries';
import { RevisionPageStore } from './review/revision-pages';
import { SiteStore } from './review/sites';
import { ReviewStore } from './review/store';
import { SearchIndex } from './search';

export type { FailureKind, SpaceRow } from './catalog';
export type { BaseRow, ConflictRow, FileRow, PageRow } from './content';
export type { AssetRow, FileStatRow, FolderNodeRow } from './folder';
export {
  DEFAULT_RETENTION,
  HistoryReadError,
  type HistoryPage,
  type HistoryReason,
  type HistoryRecord,
  type HistoryStore,
  type Retention,
  type VersionInfo,
} from './history';
export {
  SEARCH_KINDS,
  type CommentEntry,
  type CommentHit,
  type PageEntry,
  type PageHit,
  type ReplyEntry,
  type SearchHit,
  type SearchIndex,
  type SearchKind,
  type SearchOptions,
  type SnippetPart,
} from './search';

export { STATE_DIR } from './state-dir';
export { CorruptMirrorError, isCorruptionError, type SetAside } from './corrupt';
export { describeHolder, FolderBusyError, FolderLock, folderBusy, type LockHolder, withFolderLock } from './folder-lock';

export interface OpenOptions {
  /**
   * A damaged mirror (not a database, malformed, unreadable schema): `fail` (the default, for
   * read-only commands) throws CorruptMirrorError and leaves it as it is; `set-aside` (sync and
   * the app) moves it aside for inspection and starts a fresh one (`Mirror.setAside` says so).
   */
  ifCorrupt?: 'fail' | 'set-aside';
}

export type { AttentionRow, OutboxRow, OutboxStore, PushedFile } from './outbox';
export type { ReviewActionLog } from './review/action-log';
export type { RevisionPageRow, RevisionTreePage } from './review/revision-pages';
export type { RemoteSection, RemoteSectionGroup, RemoteShareLink, RemoteSite, RemoteSiteSpace, SiteParts } from './review/sites';
export { changeRequestFingerprint, commentFingerprint, type ReviewStore } from './review/store';
export type * from './review/types';

export class Mirror {
  readonly catalog: CatalogStore;
  readonly content: ContentStore;
  /** The folder's own tree: where files are, what they hold, where their links point. */
  readonly folder: FolderStore;
  readonly log: SyncLog;
  /** The push side: the change request sync writes into, the outbox, refused changes, watcher records, holds. */
  readonly outbox: OutboxStore;
  /** Change requests, comments and replies: the server's objects with pending review actions folded in. */
  readonly review: ReviewStore;
  /** The review actions a user took, in order, and where each stands. */
  readonly reviewActions: ReviewActionLog;
  /** The review questions the UI asks, answered from the mirror alone. */
  readonly reviewQueries: ReviewQueries;
  readonly sites: SiteStore;
  /** Revisions' pages, for change request diffs. */
  readonly revisionPages: RevisionPageStore;
  /** Full-text search over pages (as the folder has them), comments and replies. */
  readonly search: SearchIndex;
  /** Every version of a page Quire pulled, merged, pushed, deleted, restored or overwrote. */
  readonly history: HistoryStore;

  /** Set when opening found the mirror damaged and moved it aside: hosts show `notice` once. */
  setAside: SetAside | null = null;

  private constructor(private readonly db: Db) {
    this.catalog = new CatalogStore(db);
    this.content = new ContentStore(db);
    this.folder = new FolderStore(db);
    this.log = new SyncLog(db);
    this.outbox = new OutboxStore(db);
    this.reviewActions = new ReviewActionLog(db);
    this.search = new SearchIndex(db);
    this.history = new HistoryStore(db);
    this.review = new ReviewStore(db, this.reviewActions, this.search);
    this.reviewQueries = new ReviewQueries(db, () => this.review.me().id);
    this.sites = new SiteStore(db);
    this.revisionPages = new RevisionPageStore(db);
  }

  static open(syncFolder: string, options: OpenOptions = {}): Mirror {
    try {
      const foreign = notADatabase(syncFolder);
      if (foreign) throw foreign;
      return new Mirror(openDatabase(syncFolder));
    } catch (err) {
      if (!isCorruptionError(err)) throw err;
      if (options.ifCorrupt !== 'set-aside') throw new CorruptMirrorError(syncFolder, err);
      const moved = setAsideCorrupt(syncFolder, err);
      const mirror = new Mirror(openDatabase(syncFolder));
      mirror.setAside = moved;
      mirror.log.add('error', moved.notice);
      return mirror;
    }
  }

  /**
   * Damage found while working (a malformed page): closes this mirror and moves its file
   * aside, so the next open starts fresh. Returns the line to show.
   */
  static setAsideAfter(mirror: Mirror, syncFolder: string, err: unknown): SetAside {
    mirror.close();
    const moved = setAsideCorrupt(syncFolder, err);
    const fresh = new Mirror(openDatabase(syncFolder));
    fresh.log.add('error', moved.notice);
    fresh.close();
    return moved;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
