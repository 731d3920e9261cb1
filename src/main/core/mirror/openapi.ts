/**
 * OpenAPI specifications of organizations (migration 19): the specs and their versions as last
 * listed, when each list was read, the folder each organization's spec files go in, and the
 * files `quire openapi pull` wrote (the version each holds and the hash of its text then).
 */
import type { Statement } from 'better-sqlite3';
import type { Db } from './database';
import { statementCache } from './review/statements';

/** The fields of the API's OpenAPISpec Quire reads (the whole object is kept). */
export interface RemoteOpenApiSpec {
  id: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  sourceURL?: string;
  processingState?: string;
  visibility?: string;
  lastVersion?: string;
  lastProcessErrorCode?: string;
  lastProcessedErrorCount?: number;
  lastProcessedErrors?: { message: string }[];
}

export interface RemoteOpenApiVersion {
  id: string;
  createdAt?: string;
  url: string;
}

/** A spec file written into the folder by a pull (or a publish of that file). */
export interface OpenApiFileRow {
  organizationId: string;
  slug: string;
  /** Relative to the sync folder, `/` separators. */
  path: string;
  versionId: string | null;
  /** sha256 of the text as written (or published). */
  hash: string;
  writtenAt: string;
}

/** One organization's list and when it was read from the API. */
export type OrgList = 'openapi' | 'translations';

export class OpenApiStore {
  private readonly sql: (text: string) => Statement;

  constructor(db: Db) {
    this.sql = statementCache(db);
  }

  /** Replaces an organization's specs with a fresh listing. Call inside a transaction. */
  replaceSpecs(organizationId: string, specs: readonly RemoteOpenApiSpec[], at: string): void {
    this.sql(`DELETE FROM openapi_specs WHERE organization_id = ?`).run(organizationId);
    for (const s of specs) this.putSpec(organizationId, s);
    setListed(this.sql, organizationId, 'openapi', at);
  }

  /** One spec as the server answered it (a publish). */
  putSpec(organizationId: string, spec: RemoteOpenApiSpec): void {
    this.sql(
      `INSERT INTO openapi_specs (organization_id, slug, json) VALUES (?, ?, ?)
         ON CONFLICT (organization_id, slug) DO UPDATE SET json = excluded.json`,
    ).run(organizationId, spec.slug, JSON.stringify(spec));
  }

  specs(organizationId: string): RemoteOpenApiSpec[] {
    const rows = this.sql(`SELECT json FROM openapi_specs WHERE organization_id = ? ORDER BY slug`).all(organizationId) as { json: string }[];
    return rows.map((r) => JSON.parse(r.json) as RemoteOpenApiSpec);
  }

  /** The organizations whose specs hold `slug`. */
  organizationsWith(slug: string): string[] {
    return (this.sql(`SELECT organization_id AS id FROM openapi_specs WHERE slug = ?`).all(slug) as { id: string }[]).map((r) => r.id);
  }

  listedAt(organizationId: string, list: OrgList): string | null {
    return listedAt(this.sql, organizationId, list);
  }

  putVersions(organizationId: string, slug: string, versions: readonly RemoteOpenApiVersion[], at: string): void {
    this.sql(
      `INSERT INTO openapi_versions (organization_id, slug, json, refreshed_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (organization_id, slug) DO UPDATE SET json = excluded.json, refreshed_at = excluded.refreshed_at`,
    ).run(organizationId, slug, JSON.stringify(versions), at);
  }

  versions(organizationId: string, slug: string): { versions: RemoteOpenApiVersion[]; refreshedAt: string } | null {
    const row = this.sql(`SELECT json, refreshed_at AS at FROM openapi_versions WHERE organization_id = ? AND slug = ?`).get(organizationId, slug) as
      | { json: string; at: string }
      | undefined;
    return row ? { versions: JSON.parse(row.json) as RemoteOpenApiVersion[], refreshedAt: row.at } : null;
  }

  /** The folder (relative to the sync folder) the organization's spec files go in, once given. */
  folder(organizationId: string): string | null {
    const row = this.sql(`SELECT folder FROM openapi_folders WHERE organization_id = ?`).get(organizationId) as { folder: string } | undefined;
    return row?.folder ?? null;
  }

  folders(): Map<string, string> {
    const rows = this.sql(`SELECT organization_id AS id, folder FROM openapi_folders`).all() as { id: string; folder: string }[];
    return new Map(rows.map((r) => [r.id, r.folder]));
  }

  setFolder(organizationId: string, folder: string): void {
    this.sql(`INSERT INTO openapi_folders (organization_id, folder) VALUES (?, ?)`).run(organizationId, folder);
  }

  file(organizationId: string, slug: string): OpenApiFileRow | null {
    const row = this.sql(
      `SELECT organization_id AS organizationId, slug, path, version_id AS versionId, hash, written_at AS writtenAt
         FROM openapi_files WHERE organization_id = ? AND slug = ?`,
    ).get(organizationId, slug) as OpenApiFileRow | undefined;
    return row ?? null;
  }

  files(organizationId?: string): OpenApiFileRow[] {
    const select = `SELECT organization_id AS organizationId, slug, path, version_id AS versionId, hash, written_at AS writtenAt FROM openapi_files`;
    return (
      organizationId === undefined
        ? this.sql(`${select} ORDER BY path`).all()
        : this.sql(`${select} WHERE organization_id = ? ORDER BY path`).all(organizationId)
    ) as OpenApiFileRow[];
  }

  putFile(row: OpenApiFileRow): void {
    this.sql(
      `INSERT INTO openapi_files (organization_id, slug, path, version_id, hash, written_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (organization_id, slug) DO UPDATE SET path = excluded.path, version_id = excluded.version_id, hash = excluded.hash,
           written_at = excluded.written_at`,
    ).run(row.organizationId, row.slug, row.path, row.versionId, row.hash, row.writtenAt);
  }
}

export function setListed(sql: (text: string) => Statement, organizationId: string, list: OrgList, at: string): void {
  sql(
    `INSERT INTO org_listings (organization_id, list, refreshed_at) VALUES (?, ?, ?)
       ON CONFLICT (organization_id, list) DO UPDATE SET refreshed_at = excluded.refreshed_at`,
  ).run(organizationId, list, at);
}

export function listedAt(sql: (text: string) => Statement, organizationId: string, list: OrgList): string | null {
  const row = sql(`SELECT refreshed_at AS at FROM org_listings WHERE organization_id = ? AND list = ?`).get(organizationId, list) as { at: string } | undefined;
  return row?.at ?? null;
}
