import { redactSecrets } from '../secrets';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { statementCache } from './review/statements';

export type LogKind = 'pulled' | 'pushed' | 'merged' | 'conflict' | 'retry' | 'error' | 'info';

export interface LogEntry {
  seq: number;
  at: string;
  spaceId: string | null;
  kind: LogKind;
  message: string;
}

/** What each sync cycle did, so a user can see why a file changed. Messages are stored with tokens redacted. */
export class SyncLog {
  private readonly sql: (text: string) => Statement;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  add(kind: LogKind, message: string, spaceId: string | null = null, at = new Date().toISOString()): void {
    this.sql(`INSERT INTO sync_log (at, space_id, kind, message) VALUES (?, ?, ?, ?)`).run(at, spaceId, kind, redactSecrets(message));
  }

  recent(limit = 200, kind?: LogKind): LogEntry[] {
    const where = kind ? 'WHERE kind = ?' : '';
    const args: unknown[] = kind ? [kind, limit] : [limit];
    return this.sql(`SELECT seq, at, space_id AS spaceId, kind, message FROM sync_log ${where} ORDER BY seq DESC LIMIT ?`).all(...args) as LogEntry[];
  }
}
