import type { Migration } from './migration';

export const openapiAndTranslations: Migration = {
  version: 22,
  name: "organizations' OpenAPI specifications, the spec files pulled into the folder, and translations",
  sql: `
    -- When a list of an organization was last read from the API (list: 'openapi', 'translations'):
    -- commands that answer from the mirror offline say since when.
    CREATE TABLE org_listings (
      organization_id TEXT NOT NULL,
      list TEXT NOT NULL,
      refreshed_at TEXT NOT NULL,
      PRIMARY KEY (organization_id, list)
    );

    -- The organization's OpenAPI specifications as last listed (json: the server's OpenAPISpec),
    -- and each spec's versions as last listed (json: the list, newest first).
    CREATE TABLE openapi_specs (
      organization_id TEXT NOT NULL,
      slug TEXT NOT NULL,
      json TEXT NOT NULL,
      PRIMARY KEY (organization_id, slug)
    );
    CREATE TABLE openapi_versions (
      organization_id TEXT NOT NULL,
      slug TEXT NOT NULL,
      json TEXT NOT NULL,
      refreshed_at TEXT NOT NULL,
      PRIMARY KEY (organization_id, slug)
    );

    -- The folder of the sync folder each organization's spec files go in (given once, then kept),
    -- and each file \`quire openapi pull\` wrote: the version it holds and the hash of its text then,
    -- so a later pull tells an edit made here from a version it wrote.
    CREATE TABLE openapi_folders (
      organization_id TEXT PRIMARY KEY,
      folder TEXT NOT NULL UNIQUE
    );
    CREATE TABLE openapi_files (
      organization_id TEXT NOT NULL,
      slug TEXT NOT NULL,
      path TEXT NOT NULL,
      version_id TEXT,
      hash TEXT NOT NULL,
      written_at TEXT NOT NULL,
      PRIMARY KEY (organization_id, slug)
    );

    -- The organization's translations as last listed (json: the server's Translation); the space a
    -- translation writes into, for \`quire status\` of that space.
    CREATE TABLE translations (
      id TEXT PRIMARY KEY,
      organization_id TEXT NOT NULL,
      target_space_id TEXT,
      position INTEGER NOT NULL,
      json TEXT NOT NULL
    );
    CREATE INDEX translations_by_target ON translations (target_space_id);
  `,
};
