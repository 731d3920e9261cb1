/**
 * The local SQLite mirror of a sync folder: what every host reads, and the one owner of
 * storage. Each store keeps its tables and row shapes; nothing outside this folder writes SQL.
 * Every state change of the engine happens inside `transaction`.
 */
import { CatalogStore } from './catalog';
import { ContentStore } from './content';
import { type Db, openDatabase } from './database';
import { HistoryStore } from './history';
import { SyncLog } from './log';
import { OutboxStore } from './outbox';
import { ReviewActionLog } from './review/action-log';
import { ReviewQueries } from './review/queries';
import { RevisionPageStore } from './review/revision-pages';
import { SiteStore } from './review/sites';
import { ReviewStore } from './review/store';
import { SearchIndex } from './search';

export type { SpaceRow } from './catalog';
export type { ConflictRow, FileRow, PageRow } from './content';
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

export type { OutboxRow, OutboxStore, PushedFile } from './outbox';
export type { ReviewActionLog } from './review/action-log';
export type { RevisionPageRow, RevisionTreePage } from './review/revision-pages';
export type { RemoteSection, RemoteSectionGroup, RemoteShareLink, RemoteSite, RemoteSiteSpace, SiteParts } from './review/sites';
export { changeRequestFingerprint, commentFingerprint, type ReviewStore } from './review/store';
export type * from './review/types';

export class Mirror {
  readonly catalog: CatalogStore;
  readonly content: ContentStore;
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

  private constructor(private readonly db: Db) {
    this.catalog = new CatalogStore(db);
    this.content = new ContentStore(db);
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

  static open(syncFolder: string): Mirror {
    return new Mirror(openDatabase(syncFolder));
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
