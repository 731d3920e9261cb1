/**
 * Page history: every version of a page Quire pulled, merged, pushed, deleted, restored, or
 * found in the folder just before overwriting or deleting it, with when and why.
 *
 * The rule the sync engine keeps with it: nothing is overwritten without its previous version
 * in history. `record` runs inside the engine's transaction for the change it describes, so a
 * crash leaves either both or neither.
 *
 * Each text is stored once, compressed against the page's earlier ones (history-texts.ts).
 *
 * Retention (default: everything from the last 90 days, and at least the last 20 versions of
 * each page) is enforced a page at a time: on the page just recorded, and by `prune`, which
 * visits a bounded number of pages per call. Neither rewrites the tables.
 */
import type { Db } from './database';
import { HistoryTexts, sha256 } from './history-texts';
import type { StoredPaths } from './stored-paths';
import { statementCache } from './review/statements';

export { HistoryReadError } from './history-texts';

export type HistoryReason = 'pulled' | 'pushed' | 'merged' | 'conflict-copy' | 'deleted-locally' | 'deleted-remotely' | 'restored' | 'local';

const HISTORY_REASONS: readonly HistoryReason[] = ['pulled', 'pushed', 'merged', 'conflict-copy', 'deleted-locally', 'deleted-remotely', 'restored', 'local'];

const DELETIONS: ReadonlySet<string> = new Set<HistoryReason>(['deleted-locally', 'deleted-remotely']);

export interface HistoryRecord {
  spaceId: string;
  /** The page id, or `new:<path>` for a file that is not a page yet (see renameKey). */
  pageId: string;
  /** The page's file, relative to the space folder. */
  path: string | null;
  title: string | null;
  /** The page file's text. */
  text: string;
  reason: HistoryReason;
  /** Where it went or came from, for people: `change request #12`, `main`, `version 3`. */
  detail?: string | null;
  /** ISO time of the change. */
  at: string;
}

export interface VersionInfo {
  spaceId: string;
  pageKey: string;
  /** 1, 2, … per page; kept when older versions are pruned. */
  number: number;
  path: string | null;
  title: string | null;
  reason: HistoryReason;
  detail: string | null;
  at: string;
  /** Bytes of the text (UTF-8). */
  size: number;
  hash: string;
}

/** A page with history, as of its latest version. */
export interface HistoryPage {
  spaceId: string;
  pageKey: string;
  /** Where the page's file was last seen. */
  path: string | null;
  title: string | null;
  versions: number;
  lastNumber: number;
  lastReason: HistoryReason;
  lastAt: string;
  /** Its latest version is a deletion (here or on the server). */
  deleted: boolean;
}

export interface Retention {
  /** Keep every version younger than this many days. */
  days: number;
  /** Keep at least this many of each page's latest versions, however old. */
  minVersions: number;
}

export const DEFAULT_RETENTION: Retention = { days: 90, minVersions: 20 };

const RETENTION_META = 'history.retention';
const DAY_MS = 86_400_000;

interface PageRecord {
  space_id: string;
  page_key: string;
  last_number: number;
  path: string | null;
  title: string | null;
  last_reason: HistoryReason;
  last_at: string;
}

interface VersionRecord {
  space_id: string;
  page_key: string;
  number: number;
  path: string | null;
  title: string | null;
  reason: HistoryReason;
  detail: string | null;
  at: string;
  size: number;
  hash: Buffer;
}

const toVersion = (r: VersionRecord): VersionInfo => ({
  spaceId: r.space_id,
  pageKey: r.page_key,
  number: r.number,
  path: r.path,
  title: r.title,
  reason: r.reason,
  detail: r.detail,
  at: r.at,
  size: r.size,
  hash: r.hash.toString('hex'),
});

const VERSION_COLUMNS = `v.space_id, v.page_key, v.number, v.path, v.title, v.reason, v.detail, v.at, b.size, b.hash`;

function checkRetention(r: Retention): Retention {
  if (!Number.isInteger(r.days) || r.days < 0) throw new RangeError(`History retention: days must be a whole number of 0 or more (got ${r.days}).`);
  if (!Number.isInteger(r.minVersions) || r.minVersions < 1) {
    throw new RangeError(`History retention: the versions kept per page must be a whole number of 1 or more (got ${r.minVersions}).`);
  }
  return { days: r.days, minVersions: r.minVersions };
}

export class HistoryStore {
  private readonly sql: ReturnType<typeof statementCache>;
  private readonly texts: HistoryTexts;
  private cachedRetention: Retention | undefined;
  /** Where the next `prune` step starts: the last page it visited. */
  private pruneCursor: { spaceId: string; pageKey: string } | null = null;

  constructor(
    private readonly db: Db,
    private readonly paths: StoredPaths,
  ) {
    this.sql = statementCache(db);
    this.texts = new HistoryTexts(this.sql);
  }

  // ---- writing (the sync engine, restore) -----------------------------------------------

  /**
   * Records a version. The same text as the page's latest version is not recorded again for
   * `local` or `pulled` (nothing new happened to it), nor under the latest version's own
   * reason, unless the latest version is a deletion. Returns the version, or null when skipped.
   */
  record(r: HistoryRecord): VersionInfo | null {
    if (!(HISTORY_REASONS as readonly string[]).includes(r.reason)) {
      throw new RangeError(`Unknown history reason ${JSON.stringify(r.reason)}: use one of ${HISTORY_REASONS.join(', ')}.`);
    }
    if (Number.isNaN(Date.parse(r.at))) throw new RangeError(`A history version needs the time of the change as an ISO date (got ${JSON.stringify(r.at)}).`);
    const write = (): VersionInfo | null => {
      const hash = sha256(r.text);
      const page = this.pageRecord(r.spaceId, r.pageId);
      const latest = page ? this.latestBlob(r.spaceId, r.pageId, page.last_number) : null;
      if (
        page &&
        latest?.hash.equals(hash) &&
        !DELETIONS.has(page.last_reason) &&
        (r.reason === 'local' || r.reason === 'pulled' || r.reason === page.last_reason)
      ) {
        this.sql(`UPDATE history_pages SET path = ?, title = COALESCE(?, title) WHERE space_id = ? AND page_key = ?`).run(r.path, r.title, r.spaceId, r.pageId);
        return null;
      }
      const blob = this.texts.store(r.text, hash, latest?.keyframe ?? null);
      const number = (page?.last_number ?? 0) + 1;
      this.sql(`INSERT INTO history_versions (space_id, page_key, number, path, title, blob, reason, detail, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
        r.spaceId,
        r.pageId,
        number,
        r.path,
        r.title,
        blob,
        r.reason,
        r.detail ?? null,
        r.at,
      );
      this.sql(
        `INSERT INTO history_pages (space_id, page_key, last_number, path, title, last_reason, last_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (space_id, page_key) DO UPDATE SET last_number = excluded.last_number, path = excluded.path,
             title = COALESCE(excluded.title, title), last_reason = excluded.last_reason, last_at = excluded.last_at`,
      ).run(r.spaceId, r.pageId, number, r.path, r.title, r.reason, r.at);
      const retention = this.retention();
      // A page with no more versions than retention keeps anyway has none to drop.
      if (number > retention.minVersions) this.prunePage(r.spaceId, r.pageId, retention, Date.parse(r.at));
      const version: VersionInfo = {
        spaceId: r.spaceId,
        pageKey: r.pageId,
        number,
        path: r.path,
        title: r.title,
        reason: r.reason,
        detail: r.detail ?? null,
        at: r.at,
        size: Buffer.byteLength(r.text, 'utf8'),
        hash: hash.toString('hex'),
      };
      return version;
    };
    // Inside the engine's transaction, a part of it: a savepoint of its own would first copy each page it changes.
    return this.db.inTransaction ? write() : this.db.transaction(write)();
  }

  /** A new page got its id: its history (kept under `new:<path>`) moves to it, after any versions the id already has. */
  renameKey(spaceId: string, from: string, to: string): void {
    if (from === to) return;
    this.db.transaction(() => {
      const source = this.pageRecord(spaceId, from);
      if (!source) return;
      const target = this.pageRecord(spaceId, to);
      const offset = target?.last_number ?? 0;
      this.sql(`UPDATE history_versions SET page_key = ?, number = number + ? WHERE space_id = ? AND page_key = ?`).run(to, offset, spaceId, from);
      this.sql(`DELETE FROM history_pages WHERE space_id = ? AND page_key = ?`).run(spaceId, from);
      const newer = !target || source.last_at >= target.last_at;
      const latest = newer ? source : target;
      this.sql(
        `INSERT INTO history_pages (space_id, page_key, last_number, path, title, last_reason, last_at) VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (space_id, page_key) DO UPDATE SET last_number = excluded.last_number, path = excluded.path, title = excluded.title,
             last_reason = excluded.last_reason, last_at = excluded.last_at`,
      ).run(spaceId, to, offset + source.last_number, latest.path, latest.title ?? source.title, latest.last_reason, latest.last_at);
    })();
  }

  // ---- reading ------------------------------------------------------------------------------

  /** A page's versions, newest first. */
  versions(spaceId: string, pageKey: string): VersionInfo[] {
    const rows = this.sql(
      `SELECT ${VERSION_COLUMNS} FROM history_versions v JOIN history_blobs b ON b.id = v.blob
       WHERE v.space_id = ? AND v.page_key = ? ORDER BY v.number DESC`,
    ).all(spaceId, pageKey) as VersionRecord[];
    return rows.map((r) => this.toVersion(r));
  }

  version(spaceId: string, pageKey: string, number: number): VersionInfo | undefined {
    const row = this.sql(
      `SELECT ${VERSION_COLUMNS} FROM history_versions v JOIN history_blobs b ON b.id = v.blob
       WHERE v.space_id = ? AND v.page_key = ? AND v.number = ?`,
    ).get(spaceId, pageKey, number) as VersionRecord | undefined;
    return row && this.toVersion(row);
  }

  /** The text of one version, or undefined when the page has no such version (pruned, or never). */
  text(spaceId: string, pageKey: string, number: number): string | undefined {
    const row = this.sql(`SELECT blob FROM history_versions WHERE space_id = ? AND page_key = ? AND number = ?`).get(spaceId, pageKey, number) as
      | { blob: number }
      | undefined;
    return row && this.texts.text(row.blob);
  }

  /** The page, as of its latest version. */
  page(spaceId: string, pageKey: string): HistoryPage | undefined {
    const r = this.pageRecord(spaceId, pageKey);
    return r && this.toPage(r);
  }

  /** Pages with history, most recently changed first; `text` filters by path or title. */
  pages(filter: { spaceId?: string; text?: string; limit?: number } = {}): HistoryPage[] {
    const where: string[] = [];
    const args: Record<string, unknown> = { limit: Math.max(1, Math.min(5000, filter.limit ?? 200)) };
    if (filter.spaceId !== undefined) {
      where.push('space_id = @spaceId');
      args.spaceId = filter.spaceId;
    }
    if (filter.text?.trim()) {
      where.push(`(instr(lower(COALESCE(path, '')), @text) > 0 OR instr(lower(COALESCE(title, '')), @text) > 0)`);
      args.text = filter.text.trim().toLowerCase();
    }
    const rows = this.sql(
      `SELECT * FROM history_pages ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY last_at DESC, space_id, page_key LIMIT @limit`,
    ).all(args) as PageRecord[];
    return rows.map((r) => this.toPage(r));
  }

  /** Pages whose latest version is a deletion (here or on the server) made at or after `since` (ISO), latest first. */
  deletedSince(since: string, limit = 5000): HistoryPage[] {
    const rows = this.sql(
      `SELECT * FROM history_pages WHERE last_reason IN ('deleted-locally', 'deleted-remotely') AND last_at >= ? ORDER BY last_at DESC, space_id, page_key LIMIT ?`,
    ).all(since, limit) as PageRecord[];
    return rows.map((r) => this.toPage(r));
  }

  /** Pages this folder pushed a version of (the writer's own pages), by space. */
  pushedPageKeys(): Map<string, Set<string>> {
    const rows = this.sql(`SELECT DISTINCT space_id, page_key FROM history_versions WHERE reason = 'pushed'`).all() as { space_id: string; page_key: string }[];
    const out = new Map<string, Set<string>>();
    for (const r of rows) out.set(r.space_id, (out.get(r.space_id) ?? new Set()).add(r.page_key));
    return out;
  }

  /** The page whose file was last seen at `path` (deleted pages included), if any. */
  keyAtPath(spaceId: string, path: string): string | undefined {
    const latest = this.sql(`SELECT page_key FROM history_pages WHERE space_id = ? AND path = ? ORDER BY last_at DESC LIMIT 1`).get(spaceId, path) as
      | { page_key: string }
      | undefined;
    if (latest) return latest.page_key;
    const earlier = this.sql(`SELECT page_key FROM history_versions WHERE space_id = ? AND path = ? ORDER BY at DESC LIMIT 1`).get(spaceId, path) as
      | { page_key: string }
      | undefined;
    return earlier?.page_key;
  }

  /** Sizes, for the benchmark and diagnostics: versions, distinct texts, their bytes, and the bytes stored. */
  stats(): { versions: number; texts: number; textBytes: number; storedBytes: number } {
    const v = this.sql(`SELECT COUNT(*) AS n FROM history_versions`).get() as { n: number };
    return { versions: v.n, ...this.texts.stats() };
  }

  // ---- retention --------------------------------------------------------------------------

  /** This folder's retention (set with setRetention; DEFAULT_RETENTION otherwise). */
  retention(): Retention {
    if (!this.cachedRetention) {
      const raw = (this.sql(`SELECT value FROM meta WHERE key = ?`).get(RETENTION_META) as { value: string } | undefined)?.value;
      let stored: Retention | null = null;
      try {
        stored = raw ? checkRetention(JSON.parse(raw) as Retention) : null;
      } catch {
        stored = null; // a damaged setting falls back to the default, which keeps more
      }
      this.cachedRetention = stored ?? DEFAULT_RETENTION;
    }
    return this.cachedRetention;
  }

  setRetention(r: Retention): Retention {
    const checked = checkRetention(r);
    this.sql(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(RETENTION_META, JSON.stringify(checked));
    this.cachedRetention = checked;
    return checked;
  }

  /**
   * One step of retention: visits up to `pages` pages after where the last step stopped and
   * drops their versions the retention does not keep. `complete` once it came round to the start.
   */
  prune(retention: Retention = this.retention(), options: { pages?: number; now?: number } = {}): { removed: number; visited: number; complete: boolean } {
    const kept = checkRetention(retention);
    const max = Math.max(1, options.pages ?? 200);
    const now = options.now ?? Date.now();
    const cursor = this.pruneCursor;
    const rows = (
      cursor
        ? this.sql(`SELECT space_id, page_key FROM history_pages WHERE (space_id, page_key) > (?, ?) ORDER BY space_id, page_key LIMIT ?`).all(
            cursor.spaceId,
            cursor.pageKey,
            max,
          )
        : this.sql(`SELECT space_id, page_key FROM history_pages ORDER BY space_id, page_key LIMIT ?`).all(max)
    ) as { space_id: string; page_key: string }[];
    let removed = 0;
    this.db.transaction(() => {
      for (const r of rows) removed += this.prunePage(r.space_id, r.page_key, kept, now);
    })();
    const last = rows.at(-1);
    const complete = rows.length < max;
    this.pruneCursor = complete || !last ? null : { spaceId: last.space_id, pageKey: last.page_key };
    return { removed, visited: rows.length, complete };
  }

  private prunePage(spaceId: string, pageKey: string, retention: Retention, now: number): number {
    const cutoff = new Date(now - retention.days * DAY_MS).toISOString();
    const doomed = this.sql(
      `SELECT number, blob FROM history_versions WHERE space_id = @spaceId AND page_key = @pageKey AND at < @cutoff
         AND number NOT IN (SELECT number FROM history_versions WHERE space_id = @spaceId AND page_key = @pageKey ORDER BY number DESC LIMIT @keep)`,
    ).all({ spaceId, pageKey, cutoff, keep: retention.minVersions }) as { number: number; blob: number }[];
    if (doomed.length === 0) return 0;
    const remove = this.sql(`DELETE FROM history_versions WHERE space_id = ? AND page_key = ? AND number = ?`);
    for (const d of doomed) remove.run(spaceId, pageKey, d.number);
    this.texts.collect(doomed.map((d) => d.blob));
    return doomed.length;
  }

  // ---- rows ---------------------------------------------------------------------------------

  private pageRecord(spaceId: string, pageKey: string): PageRecord | undefined {
    return this.sql(`SELECT * FROM history_pages WHERE space_id = ? AND page_key = ?`).get(spaceId, pageKey) as PageRecord | undefined;
  }

  /** A version as read, the file it names checked to stay inside the space's folder (stored-paths.ts). */
  private toVersion(r: VersionRecord): VersionInfo {
    this.paths.inSpace(r.space_id, r.path, "a page's file");
    return toVersion(r);
  }

  private toPage(r: PageRecord): HistoryPage {
    this.paths.inSpace(r.space_id, r.path, "a page's file");
    const count = this.sql(`SELECT COUNT(*) AS n FROM history_versions WHERE space_id = ? AND page_key = ?`).get(r.space_id, r.page_key) as { n: number };
    return {
      spaceId: r.space_id,
      pageKey: r.page_key,
      path: r.path,
      title: r.title,
      versions: count.n,
      lastNumber: r.last_number,
      lastReason: r.last_reason,
      lastAt: r.last_at,
      deleted: DELETIONS.has(r.last_reason),
    };
  }

  /** The page's latest text: its hash, and the keyframe it is stored against (or is). */
  private latestBlob(spaceId: string, pageKey: string, number: number): { hash: Buffer; keyframe: number } | null {
    const r = this.sql(
      `SELECT b.hash, COALESCE(b.base, b.id) AS keyframe FROM history_versions v JOIN history_blobs b ON b.id = v.blob
       WHERE v.space_id = ? AND v.page_key = ? AND v.number = ?`,
    ).get(spaceId, pageKey, number) as { hash: Buffer; keyframe: number } | undefined;
    return r ?? null;
  }
}
