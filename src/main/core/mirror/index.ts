import { openDatabase, type Db } from './database';
import { CatalogStore } from './catalog';
import { ContentStore } from './content';
import { SyncLog } from './log';

export type { Db } from './database';
export { STATE_DIR } from './database';
export type { SpaceRow, OrganizationRow, RemoteSpace } from './catalog';
export type { PageRow, FileRow, ConflictRow } from './content';
export type { LogEntry, LogKind } from './log';

/**
 * The local SQLite mirror of a sync folder: what every host reads.
 * Every state change of the engine happens inside `transaction`.
 */
export class Mirror {
  readonly catalog: CatalogStore;
  readonly content: ContentStore;
  readonly log: SyncLog;

  private constructor(readonly db: Db) {
    this.catalog = new CatalogStore(db);
    this.content = new ContentStore(db);
    this.log = new SyncLog(db);
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
