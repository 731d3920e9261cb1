import { redactSecrets } from '../secrets';
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { statementCache } from './review/statements';
import type { StoredPaths } from './stored-paths';

export interface OrganizationRow {
  id: string;
  title: string;
}

export interface SpaceRow {
  id: string;
  organizationId: string;
  collectionId: string | null;
  title: string;
  emoji: string | null;
  visibility: string | null;
  remoteRevision: string;
  selected: boolean;
  /** The space's folder in the sync folder; null before its first sync, and when the state names one Quire may not use (`folderRefused`). */
  folder: string | null;
  /** The one line saying why the folder the state names is not used (outside the sync folder, a link, another space's): nothing of the space is read, written or sent. */
  folderRefused: string | null;
  syncedRevision: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  /** The last cycle of this space that reached the server and completed. */
  reachedAt: string | null;
  /** Since the last reach: the first and the last attempt that failed, and how (null: none failed). */
  failingSince: string | null;
  failedAt: string | null;
  failureKind: FailureKind | null;
}

/** How an attempt to sync failed: the API could not be reached, it rejected the token, or anything else. */
export type FailureKind = 'offline' | 'token-rejected' | 'error';

export interface RemoteSpace {
  id: string;
  organization: string;
  parent?: string;
  title: string;
  emoji?: string;
  visibility?: string;
  revision: string;
}

interface SpaceRecord {
  id: string;
  organization_id: string;
  collection_id: string | null;
  title: string;
  emoji: string | null;
  visibility: string | null;
  remote_revision: string;
  selected: number;
  folder: string | null;
  synced_revision: string | null;
  last_sync_at: string | null;
  last_error: string | null;
  reached_at: string | null;
  failing_since: string | null;
  failed_at: string | null;
  failure_kind: FailureKind | null;
}

function toSpaceRow(r: SpaceRecord, folderRefused: string | null): SpaceRow {
  return {
    id: r.id,
    organizationId: r.organization_id,
    collectionId: r.collection_id,
    title: r.title,
    emoji: r.emoji,
    visibility: r.visibility,
    remoteRevision: r.remote_revision,
    selected: r.selected === 1,
    folder: folderRefused === null ? r.folder : null,
    folderRefused,
    syncedRevision: r.synced_revision,
    lastSyncAt: r.last_sync_at,
    lastError: r.last_error,
    reachedAt: r.reached_at,
    failingSince: r.failing_since,
    failedAt: r.failed_at,
    failureKind: r.failure_kind,
  };
}

/** Organizations, collections and spaces as last listed by the API. */
export class CatalogStore {
  private readonly sql: (text: string) => Statement;

  constructor(
    db: Db,
    private readonly paths: StoredPaths,
  ) {
    this.sql = statementCache(db);
  }

  upsertOrganization(org: { id: string; title: string }, json: unknown, at: string): void {
    this.sql(
      `INSERT INTO organizations (id, title, json, refreshed_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET title = excluded.title, json = excluded.json, refreshed_at = excluded.refreshed_at`,
    ).run(org.id, org.title, JSON.stringify(json), at);
  }

  /** The organizations last listed, and when the oldest of them was; null when none was listed yet. */
  organizationsRefreshedAt(): { ids: string[]; oldest: string } | null {
    const rows = this.sql(`SELECT id, refreshed_at AS at FROM organizations`).all() as { id: string; at: string }[];
    if (rows.length === 0) return null;
    return { ids: rows.map((r) => r.id), oldest: rows.map((r) => r.at).sort()[0]! };
  }

  organizations(): OrganizationRow[] {
    return this.sql(`SELECT id, title FROM organizations ORDER BY title, id`).all() as OrganizationRow[];
  }

  upsertCollection(c: { id: string; organization: string; parent?: string; title: string }, json: unknown): void {
    this.sql(
      `INSERT INTO collections (id, organization_id, parent_id, title, json) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET organization_id = excluded.organization_id, parent_id = excluded.parent_id,
           title = excluded.title, json = excluded.json`,
    ).run(c.id, c.organization, c.parent ?? null, c.title, JSON.stringify(json));
  }

  /** How many spaces the mirror knows in each organization (synced or not). */
  spaceCounts(): Map<string, number> {
    const rows = this.sql(`SELECT organization_id AS id, count(*) AS n FROM spaces GROUP BY organization_id`).all() as { id: string; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  knownCollectionIds(): Set<string> {
    const rows = this.sql(`SELECT id FROM collections`).all() as { id: string }[];
    return new Set(rows.map((r) => r.id));
  }

  collections(): { id: string; organizationId: string; parentId: string | null; title: string }[] {
    return this.sql(`SELECT id, organization_id AS organizationId, parent_id AS parentId, title FROM collections ORDER BY title`).all() as {
      id: string;
      organizationId: string;
      parentId: string | null;
      title: string;
    }[];
  }

  upsertSpace(s: RemoteSpace, json: unknown): void {
    this.sql(
      `INSERT INTO spaces (id, organization_id, collection_id, title, emoji, visibility, remote_revision, json)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET organization_id = excluded.organization_id, collection_id = excluded.collection_id,
           title = excluded.title, emoji = excluded.emoji, visibility = excluded.visibility,
           remote_revision = excluded.remote_revision, json = excluded.json`,
    ).run(s.id, s.organization, s.parent ?? null, s.title, s.emoji ?? null, s.visibility ?? null, s.revision, JSON.stringify(json));
  }

  space(id: string): SpaceRow | undefined {
    const r = this.sql(`SELECT * FROM spaces WHERE id = ?`).get(id) as SpaceRecord | undefined;
    if (!r) return undefined;
    const others = r.folder === null ? [] : (this.sql(`SELECT id, title, folder FROM spaces WHERE folder IS NOT NULL`).all() as SpaceRecord[]);
    return this.toRow(r, others);
  }

  spaces(): SpaceRow[] {
    const records = this.sql(`SELECT * FROM spaces ORDER BY title, id`).all() as SpaceRecord[];
    return records.map((r) => this.toRow(r, records));
  }

  /** The row, its folder checked as it is read (stored-paths.ts), against the other spaces' folders. */
  private toRow(r: SpaceRecord, others: readonly Pick<SpaceRecord, 'id' | 'title' | 'folder'>[]): SpaceRow {
    return toSpaceRow(r, r.folder === null ? null : this.paths.folderRefusal({ id: r.id, title: r.title, folder: r.folder }, others));
  }

  selectedSpaces(): SpaceRow[] {
    return this.spaces().filter((s) => s.selected);
  }

  setSelected(ids: Iterable<string>, selected: boolean): void {
    const stmt = this.sql(`UPDATE spaces SET selected = ? WHERE id = ?`);
    for (const id of ids) stmt.run(selected ? 1 : 0, id);
  }

  usedFolders(): Set<string> {
    const rows = this.sql(`SELECT folder FROM spaces WHERE folder IS NOT NULL`).all() as { folder: string }[];
    return new Set(rows.map((r) => r.folder.toLowerCase()));
  }

  setFolder(spaceId: string, folder: string): void {
    this.sql(`UPDATE spaces SET folder = ? WHERE id = ?`).run(folder, spaceId);
  }

  /** A clean sync at `at`; `revision` null when main had not moved (the synced revision stays). */
  markSynced(spaceId: string, revision: string | null, at: string): void {
    this.sql(`UPDATE spaces SET synced_revision = COALESCE(?, synced_revision), last_sync_at = ?, last_error = NULL WHERE id = ?`).run(revision, at, spaceId);
  }

  markError(spaceId: string, message: string): void {
    this.sql(`UPDATE spaces SET last_error = ? WHERE id = ?`).run(redactSecrets(message), spaceId);
  }

  /** A cycle of the space reached the server and completed at `at`: failures before it are over. */
  markReached(spaceId: string, at: string): void {
    this.sql(`UPDATE spaces SET reached_at = ?, failing_since = NULL, failed_at = NULL, failure_kind = NULL, last_error = NULL WHERE id = ?`).run(at, spaceId);
  }

  /** An attempt to sync the space failed at `at`; the first failure since the last reach is kept as `failingSince`. */
  markFailed(spaceId: string, kind: FailureKind, message: string, at: string): void {
    this.sql(`UPDATE spaces SET failing_since = COALESCE(failing_since, ?), failed_at = ?, failure_kind = ?, last_error = ? WHERE id = ?`).run(
      at,
      at,
      kind,
      redactSecrets(message),
      spaceId,
    );
  }

  getMeta(key: string): string | undefined {
    const r = this.sql(`SELECT value FROM meta WHERE key = ?`).get(key) as { value: string } | undefined;
    return r?.value;
  }

  setMeta(key: string, value: string): void {
    this.sql(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(key, value);
  }
}
