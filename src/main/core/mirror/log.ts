import { redactSecrets } from '../secrets';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { statementCache } from './review/statements';

export type LogKind = 'pulled' | 'pushed' | 'merged' | 'conflict' | 'retry' | 'error' | 'info';

/**
 * What happened to one page in a cycle. A pull: `added` (new from the server), `changed` (the
 * server's text), `merged` (the server's text merged with edits here), `moved`, `deleted`,
 * `conflict`. A push: `added`, `edited`, `moved` (or renamed), `retitled`, `deleted`.
 */
export type LogPageChange = 'added' | 'changed' | 'merged' | 'moved' | 'deleted' | 'conflict' | 'edited' | 'retitled';

export interface LogPage {
  /** The page's id (its key, `new:<path>`, when the server gave it none yet). */
  pageId: string;
  title: string | null;
  /** Its file, relative to the space folder, after the change (null: it has none, deleted say). */
  path: string | null;
  change: LogPageChange;
  /** Where its file was, when it moved. */
  from?: string;
}

/** A person as the API names them (a change request's author, who merged it). */
export interface LogPerson {
  id: string;
  name: string;
}

export interface LogChangeRequest {
  id: string;
  number: number | null;
  subject: string | null;
  createdBy?: LogPerson;
  mergedBy?: LogPerson;
}

/** What a pull or a push did, page by page: structured, for each host to word. */
export interface LogActivity {
  direction: 'pull' | 'push';
  /** The pages, at most a hundred (a first sync pulls thousands): `morePages` counts the rest. */
  pages: LogPage[];
  morePages: number;
  /** Assets (`.gitbook/assets/…`) pulled or uploaded, at most a hundred; `moreFiles` counts the rest. */
  files: string[];
  moreFiles: number;
  /** Files written again only because a page they link to moved (a pull). */
  relinked: number;
  /** A push: the change request the changes went to. */
  changeRequest?: LogChangeRequest;
  /**
   * A pull: main's revision it brought in and, where the API says, who made it: a merge names the
   * change request it merged (its author, who merged it). `only`: it is the one revision since the
   * last sync, so its author made every change listed; otherwise it is only the latest of them.
   */
  revision?: { id: string; mergedFrom?: LogChangeRequest; only: boolean };
  /**
   * Files Quire moved without main (a `pull` of moves only): ones the writer asked to go to
   * GitBook's path (`asked`), or the folder laid out anew (`layout`: Quire's naming changed, or
   * what the volume holds).
   */
  movedBy?: 'asked' | 'layout';
}

export interface LogEntry {
  seq: number;
  at: string;
  spaceId: string | null;
  kind: LogKind;
  message: string;
  /** Set for pulls and pushes recorded with their pages. */
  activity: LogActivity | null;
}

/** The most pages (and files) one entry lists. */
export const LOG_LIST_LIMIT = 100;

/** What each sync cycle did, so a user can see why a file changed. Messages and activity are stored with tokens redacted. */
export class SyncLog {
  private readonly sql: (text: string) => Statement;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  add(kind: LogKind, message: string, spaceId: string | null = null, at = new Date().toISOString(), activity: LogActivity | null = null): void {
    this.sql(`INSERT INTO sync_log (at, space_id, kind, message, activity) VALUES (?, ?, ?, ?, ?)`).run(
      at,
      spaceId,
      kind,
      redactSecrets(message),
      activity === null ? null : redactSecrets(JSON.stringify(activity)),
    );
  }

  /** Newest first; `spaceId` keeps one space's entries, `beforeSeq` pages further back. */
  recent(limit = 200, kind?: LogKind, filter: { spaceId?: string; beforeSeq?: number } = {}): LogEntry[] {
    const where: string[] = [];
    const args: unknown[] = [];
    if (kind) {
      where.push('kind = ?');
      args.push(kind);
    }
    if (filter.spaceId) {
      where.push('space_id = ?');
      args.push(filter.spaceId);
    }
    if (filter.beforeSeq !== undefined) {
      where.push('seq < ?');
      args.push(filter.beforeSeq);
    }
    const rows = this.sql(
      `SELECT seq, at, space_id AS spaceId, kind, message, activity FROM sync_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`,
    ).all(...args, limit) as (Omit<LogEntry, 'activity'> & { activity: string | null })[];
    return rows.map((r) => ({ ...r, activity: parseActivity(r.activity) }));
  }
}

/** A stored activity, or null when there is none or it does not read as one. */
function parseActivity(json: string | null): LogActivity | null {
  if (json === null) return null;
  try {
    const value = JSON.parse(json) as LogActivity;
    return value && typeof value === 'object' && Array.isArray(value.pages) && Array.isArray(value.files) ? value : null;
  } catch {
    return null;
  }
}
