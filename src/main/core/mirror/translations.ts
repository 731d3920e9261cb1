/**
 * Translations of organizations as last listed (migration 19): each keeps the server's object;
 * the space a translation writes into is indexed, for what `quire status` says of that space.
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { listedAt, setListed } from './openapi';
import { statementCache } from './review/statements';

/** The fields of the API's Translation Quire reads (the whole object is kept). */
export interface RemoteTranslation {
  id: string;
  status: string;
  source: { space: string; language: string };
  language: string;
  result?: { space: string; revision: string; language: string };
  createdAt: string;
  updatedAt: string;
  stats?: { runs?: number };
}

export interface TranslationRow {
  organizationId: string;
  translation: RemoteTranslation;
}

export class TranslationStore {
  private readonly sql: (text: string) => Statement;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** Replaces an organization's translations with a fresh listing. Call inside a transaction. */
  replace(organizationId: string, list: readonly RemoteTranslation[], at: string): void {
    this.sql(`DELETE FROM translations WHERE organization_id = ?`).run(organizationId);
    for (const [i, t] of list.entries()) this.insert(organizationId, t, i);
    setListed(this.sql, organizationId, 'translations', at);
  }

  /** One translation as the server answered it now (after a run), in its place. */
  put(organizationId: string, t: RemoteTranslation): void {
    const row = this.sql(`SELECT position FROM translations WHERE id = ?`).get(t.id) as { position: number } | undefined;
    this.sql(`DELETE FROM translations WHERE id = ?`).run(t.id);
    this.insert(organizationId, t, row?.position ?? Number.MAX_SAFE_INTEGER);
  }

  list(organizationId?: string): TranslationRow[] {
    const rows = (
      organizationId === undefined
        ? this.sql(`SELECT organization_id AS org, json FROM translations ORDER BY organization_id, position`).all()
        : this.sql(`SELECT organization_id AS org, json FROM translations WHERE organization_id = ? ORDER BY position`).all(organizationId)
    ) as { org: string; json: string }[];
    return rows.map((r) => ({ organizationId: r.org, translation: JSON.parse(r.json) as RemoteTranslation }));
  }

  /** The translation writing into `spaceId`, if one does (the first listed). */
  into(spaceId: string): TranslationRow | null {
    const row = this.sql(`SELECT organization_id AS org, json FROM translations WHERE target_space_id = ? ORDER BY position LIMIT 1`).get(spaceId) as
      | { org: string; json: string }
      | undefined;
    return row ? { organizationId: row.org, translation: JSON.parse(row.json) as RemoteTranslation } : null;
  }

  listedAt(organizationId: string): string | null {
    return listedAt(this.sql, organizationId, 'translations');
  }

  private insert(organizationId: string, t: RemoteTranslation, position: number): void {
    this.sql(`INSERT INTO translations (id, organization_id, target_space_id, position, json) VALUES (?, ?, ?, ?, ?)`).run(
      t.id,
      organizationId,
      t.result?.space ?? null,
      position,
      JSON.stringify(t),
    );
  }
}
