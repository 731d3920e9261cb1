/**
 * The local SQLite mirror of a sync folder: what every host reads, and the one owner of
 * storage. Each store keeps its tables and row shapes; nothing outside this folder writes SQL.
 * Every state change of the engine happens inside `transaction`.
 */
import { CatalogStore } from './catalog';
import { ContentStore } from './content';
import { join } from 'node:path';
import { CorruptMirrorError, isCorruptionError, MIRROR_FILE, notADatabase, type SetAside, setAsideCorrupt } from './corrupt';
import { checkMirrorFiles, type Db, openDatabase, openDatabaseToPlan } from './database';
import { type Damage, findDamage, type HistoryRebuild, mayBeDerivedDamage, rebuildHistory, rebuildSearch } from './derived';
import { FolderStore } from './folder';
import { HistoryStore } from './history';
import { OpenApiStore } from './openapi';
import { SyncLog } from './log';
import { OutboxStore } from './outbox';
import { ReviewActionLog } from './review/action-log';
import { PendingReviewStore } from './review/pending-reviews';
import { CheckoutStore } from './review/checkouts';
import { InboxMarkStore } from './review/inbox-marks';
import { ReviewViews } from './review/views';
import { ReviewerStore } from './review/reviewers';
import { RevisionPageStore } from './review/revision-pages';
import { CommentAnchorStore } from './review/anchors';
import { SiteStore } from './review/sites';
import { ReviewRecords } from './review/records';
import { ViewedPageStore } from './review/viewed-pages';
import { SearchIndex } from './search';
import { STATE_DIR } from './state-dir';
import { isOtherWriter } from './storage-errors';
import { StoredPaths } from './stored-paths';
import { TranslationStore } from './translations';
import { plural } from '../../../shared/plural';

export type { FailureKind, OrganizationRow, SpaceRow } from './catalog';
export type { BaseRow, ConflictRow, FileRow, PageRow } from './content';
export type { AssetRow, FileStatRow, FolderNodeRow, OutlineRow } from './folder';
export { LOG_LIST_LIMIT, type LogActivity, type LogChangeRequest, type LogEntry, type LogKind, type LogPage, type LogPageChange, type LogPerson } from './log';
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
  checkQuerySize,
  MAX_QUERY_CHARS,
  MAX_QUERY_WORDS,
  SEARCH_KINDS,
  SearchQueryTooLargeError,
  type CommentEntry,
  type CommentHit,
  type PageEntry,
  type PageHit,
  type ReplyEntry,
  reusableContentOfKey,
  type SearchHit,
  type SearchIndex,
  type SearchKind,
  type SearchOptions,
  type SnippetPart,
} from './search';

export { STATE_DIR } from './state-dir';
export { CorruptMirrorError, hasMirror, isCorruptionError, type SetAside } from './corrupt';
export { FolderBusyError, FolderLock, folderBusy, type FolderLockOptions, withFolderLock } from './folder-lock';
export { currentHolder, describeHolder, type LockHolder } from './lock-holder';
export { StateFileError, stagingDir } from './state-files';
export { explainStorageError, type ExplainOptions, isOtherWriter, StorageError } from './storage-errors';
export { refuseSyncFolder, UnsafeSyncFolderError } from './sync-folder';
export { pathProblem, UnsafeStatePathError } from './stored-paths';

export interface OpenOptions {
  /**
   * A damaged mirror (not a database, malformed, unreadable schema): `fail` (the default, for
   * read-only commands) throws CorruptMirrorError and leaves it as it is; `set-aside` (sync and
   * the app) moves it aside for inspection and starts a fresh one (`Mirror.setAside` says so),
   * and makes again a search or history table found missing (`Mirror.notices` say so).
   */
  ifCorrupt?: 'fail' | 'set-aside';
}

export type { OpenApiFileRow, OpenApiStore, OrgList, RemoteOpenApiSpec, RemoteOpenApiVersion } from './openapi';
export type { RemoteTranslation, TranslationRow, TranslationStore } from './translations';
export type { OutboxStore } from './outbox';
export type { AttentionRow, OutboxRow, PushedFile, PushedPageRow } from './outbox-rows';
export type { ReviewActionLog } from './review/action-log';
export type { PendingReviewRow, PendingReviewStore } from './review/pending-reviews';
export type { ViewedPageStore } from './review/viewed-pages';
export type { CheckoutRow, CheckoutStore } from './review/checkouts';
export type { InboxMark, InboxMarkStore } from './review/inbox-marks';
export type { ReviewerStore } from './review/reviewers';
export type { CommentAnchor } from './review/anchors';
export type { RevisionPageRow, RevisionTreePage, StoredRevisionPage } from './review/revision-pages';
export type { RemoteSection, RemoteSectionGroup, RemoteShareLink, RemoteSite, RemoteSiteSpace, SiteParts } from './review/sites';
export { changeRequestFingerprint, commentFingerprint } from './review/listed';
export type { ReviewRecords } from './review/records';
export type * from './review/types';

/** Thrown to roll back `Mirror.undone`'s transaction. */
const UNDO = Symbol('undo');

export class Mirror {
  readonly catalog: CatalogStore;
  readonly content: ContentStore;
  /** The folder's own tree: where files are, what they hold, where their links point. */
  readonly folder: FolderStore;
  readonly log: SyncLog;
  /** The push side: the change request sync writes into, the outbox, refused changes, watcher records, holds. */
  readonly outbox: OutboxStore;
  /*
   * The review mirror (mirror/review/). Change requests, comments and replies are records,
   * written by `reviewRecords` and read as views by `reviewViews`: a new field is a column (a
   * migration), written in review/records.ts's materialize*, read in review/views.ts, typed in
   * review/types.ts (its `*View`).
   */
  /** Change requests, comments and replies as records: the server's objects, with the pending review actions folded in (writes them). */
  readonly reviewRecords: ReviewRecords;
  /** The same records read as the views show them: change requests, comments and replies, a change request's diff, sites' trees. */
  readonly reviewViews: ReviewViews;
  /** The queue of review actions the user took, in order, and where each stands (queued, sending, done, refused). */
  readonly reviewActions: ReviewActionLog;
  /** Who reviews a change request: its reviews and requested reviewers, and the organizations' members. */
  readonly reviewers: ReviewerStore;
  /** Reviews the user started and has not finished (their comments wait in reviewActions). */
  readonly pendingReviews: PendingReviewStore;
  /** Pages of change requests the user marked viewed. */
  readonly viewedPages: ViewedPageStore;
  /** Inbox items the user read, pinned or snoozed. */
  readonly inboxMarks: InboxMarkStore;
  /** Where comments on a block were made, to place them at a line and tell when they are outdated. */
  readonly commentAnchors: CommentAnchorStore;
  /** Revisions' pages, for change request diffs. */
  readonly revisionPages: RevisionPageStore;
  /** Change requests written out as read-only folders. */
  readonly checkouts: CheckoutStore;
  /** Organizations' sites, their sections and share links. */
  readonly sites: SiteStore;
  /** Full-text search over pages (as the folder has them), comments and replies. */
  readonly search: SearchIndex;
  /** Every version of a page Quire pulled, merged, pushed, deleted, restored or overwrote. */
  readonly history: HistoryStore;
  /** Organizations' OpenAPI specifications, their versions, and the spec files pulled into the folder. */
  readonly openapi: OpenApiStore;
  /** Organizations' translations as last listed. */
  readonly translations: TranslationStore;

  /** Set when opening found the mirror damaged and moved it aside: hosts show `notice` once. */
  setAside: SetAside | null = null;
  /** Lines saying what opening set aside or repaired (search or history made again): hosts show each once. */
  readonly notices: string[] = [];
  /** Errors repairAfter looked into and found not to be damage of search or history alone. */
  private readonly notRepaired = new WeakSet<object>();

  private constructor(
    private readonly db: Db,
    /** The sync folder. */
    readonly syncFolder: string,
  ) {
    const paths = new StoredPaths(db, syncFolder);
    this.catalog = new CatalogStore(db, paths);
    this.content = new ContentStore(db, paths);
    this.folder = new FolderStore(db, paths);
    this.log = new SyncLog(db);
    this.outbox = new OutboxStore(db);
    this.reviewActions = new ReviewActionLog(db);
    this.search = new SearchIndex(db, paths);
    this.history = new HistoryStore(db, paths);
    this.reviewRecords = new ReviewRecords(db, this.reviewActions, this.search);
    this.reviewViews = new ReviewViews(db, () => this.reviewRecords.me().id);
    this.reviewers = new ReviewerStore(db, this.reviewRecords, this.reviewActions);
    this.sites = new SiteStore(db);
    this.revisionPages = new RevisionPageStore(db);
    this.openapi = new OpenApiStore(db);
    this.translations = new TranslationStore(db);
    this.pendingReviews = new PendingReviewStore(db);
    this.viewedPages = new ViewedPageStore(db);
    this.inboxMarks = new InboxMarkStore(db);
    this.checkouts = new CheckoutStore(db);
    this.commentAnchors = new CommentAnchorStore(db);
  }

  static open(syncFolder: string, options: OpenOptions = {}): Mirror {
    let mirror: Mirror;
    try {
      checkMirrorFiles(syncFolder, { create: false }); // no link, before anything reads through one
      const foreign = notADatabase(syncFolder);
      if (foreign) throw foreign;
      mirror = new Mirror(openDatabase(syncFolder), syncFolder);
    } catch (err) {
      if (!isCorruptionError(err)) throw err;
      if (options.ifCorrupt !== 'set-aside') throw new CorruptMirrorError(syncFolder, err);
      const moved = setAsideCorrupt(syncFolder, err);
      mirror = new Mirror(openDatabase(syncFolder), syncFolder);
      mirror.setAside = moved;
      mirror.notices.push(moved.notice);
      mirror.log.add('error', moved.notice);
      return mirror;
    }
    // Syncs repair search and history before they start when a table is plainly missing (cheap: the schema).
    if (options.ifCorrupt === 'set-aside') {
      const damage = findDamage(mirror.db, { thorough: false });
      if (damage.derived.size > 0) mirror.notices.push(...mirror.rebuild(damage));
    }
    return mirror;
  }

  /**
   * The mirror a dry run plans with, which writes nothing anywhere: the folder's own as it is,
   * or one in memory when the folder has none yet (or one from an older Quire). A damaged one
   * is reported (CorruptMirrorError), never set aside.
   */
  static openToPlan(syncFolder: string): Mirror {
    try {
      const foreign = notADatabase(syncFolder);
      if (foreign) throw foreign;
      return new Mirror(openDatabaseToPlan(syncFolder), syncFolder);
    } catch (err) {
      if (isCorruptionError(err)) throw new CorruptMirrorError(syncFolder, err);
      throw err;
    }
  }

  /**
   * Damage found while working (a malformed page): search or history damaged alone are made
   * again in place (repairAfter); anything else closes this mirror and moves its file aside, so
   * the next open starts fresh. Returns the line to show (`keptAs` empty when nothing was moved).
   */
  static setAsideAfter(mirror: Mirror, syncFolder: string, err: unknown): SetAside {
    const repaired = mirror.repairAfter(err);
    mirror.close();
    if (repaired) return { keptAs: '', reason: repaired.join(' '), notice: repaired.join(' ') };
    const moved = setAsideCorrupt(syncFolder, err);
    const fresh = new Mirror(openDatabase(syncFolder), syncFolder);
    fresh.log.add('error', moved.notice);
    fresh.close();
    return moved;
  }

  /**
   * `err` came from using this mirror. When it is damage to search or history and nothing else
   * (derived.ts looks, with quick_check), that part is made again and the lines saying so are
   * returned: the caller runs again. Null otherwise (damage to the mirror itself is not repaired
   * in place), and inside a transaction.
   */
  repairAfter(err: unknown): string[] | null {
    if (!this.db.open || this.db.inTransaction || !mayBeDerivedDamage(err) || this.notRepaired.has(err as object)) return null;
    let damage: Damage;
    try {
      damage = findDamage(this.db, { thorough: true });
    } catch {
      return null;
    }
    if (damage.core.length > 0 || damage.derived.size === 0) {
      this.notRepaired.add(err as object); // the next caller handed the same error need not look again (seconds on a large mirror)
      return null;
    }
    try {
      return this.rebuild(damage);
    } catch {
      return null;
    }
  }

  /**
   * Runs `fn`; when it fails on damaged search or history (repairAfter), that part is made again,
   * `say` is told each line, and `fn` runs once more. For work that may run twice: reads, and
   * writes in one transaction.
   */
  async withRepair<T>(fn: () => T | Promise<T>, say: (line: string) => void): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      const repaired = this.repairAfter(err);
      if (!repaired) throw err;
      for (const line of repaired) say(line);
      return await fn();
    }
  }

  private rebuild(damage: Damage): string[] {
    const where = join(this.syncFolder, STATE_DIR, MIRROR_FILE);
    const lines: string[] = [];
    if (damage.derived.has('search')) {
      rebuildSearch(this.db);
      lines.push(
        `The search index in ${where} was damaged (${damage.reason}): it was made again (comments now, pages from your folder as the next sync or search reads them). Nothing else was affected.`,
      );
    }
    if (damage.derived.has('history')) {
      const { kept, lost } = rebuildHistory(this.db);
      lines.push(
        kept
          ? `Page history in ${where} was damaged (${damage.reason}): its list of pages was made again from the versions kept; no version was lost.`
          : `Page history in ${where} was damaged (${damage.reason}) and could not be kept: ${describeLost(lost)}, and it starts again from now. Your files and the sync state are not affected.`,
      );
    }
    for (const line of lines) this.log.add('error', line);
    return lines;
  }

  /**
   * Runs `fn` in one transaction. It takes the write lock at its start (BEGIN IMMEDIATE), waiting
   * for another process's write as the busy timeout allows: one that read first and then wrote
   * would fail at once ("database is locked") when another process wrote in between.
   */
  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn).immediate();
  }

  /**
   * Runs `fn` (writes) without waiting for another program's write: SQLITE_BUSY at once, not after
   * the busy timeout. For what follows a write that waited its 5 s and failed (the failure's own
   * record, a list shown marked read): each wait would say the failure 5 s later, and fail anyway.
   */
  withoutWaiting<T>(fn: () => T): T {
    const waitMs = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma('busy_timeout = 0');
    try {
      return fn();
    } finally {
      this.db.pragma(`busy_timeout = ${waitMs}`);
    }
  }

  /** Runs `fn`, which records the failure `err` (the failed attempt, its log line): without waiting when `err` is another writer's. */
  recordingFailure<T>(err: unknown, fn: () => T): T {
    return isOtherWriter(err) ? this.withoutWaiting(fn) : fn();
  }

  /**
   * Runs `fn` as a part of the transaction already open, else in one of its own: inside one, a
   * failure fails the whole, with no savepoint of its own (whose journal copies every page `fn`
   * changes, to a temporary file past 64 KB: the record of a large pull wrote it all twice).
   */
  within<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : this.transaction(fn);
  }

  /**
   * Runs `fn`, which only reads, over one snapshot of the mirror: one read lock for all its
   * queries, where each query on its own takes and drops one (a plan asks thousands).
   */
  reading<T>(fn: () => T): T {
    return this.db.inTransaction ? fn() : this.db.transaction(fn).deferred();
  }

  /**
   * Runs `fn` over the mirror, then undoes every write it made: a dry run reads what the mirror
   * would say after a write it must not make. `fn` must not await (the transaction would span it).
   */
  undone<T>(fn: () => T): T {
    const result: { value?: T } = {};
    try {
      this.db.transaction(() => {
        result.value = fn();
        throw UNDO;
      })();
    } catch (err) {
      if (err !== UNDO) throw err;
    }
    return result.value as T;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** "12 versions of 3 pages are lost", as far as they could be counted. */
function describeLost(lost: HistoryRebuild['lost']): string {
  const are = (count: number) => (count === 1 ? 'is' : 'are');
  if (lost.versions !== null && lost.pages !== null) return `${plural(lost.versions, 'version')} of ${plural(lost.pages, 'page')} ${are(lost.versions)} lost`;
  if (lost.pages !== null) return `the versions of ${plural(lost.pages, 'page')} are lost`;
  if (lost.versions !== null) return `${plural(lost.versions, 'version')} ${are(lost.versions)} lost`;
  return 'the versions kept until now are lost';
}
