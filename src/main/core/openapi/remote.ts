/**
 * An organization's OpenAPI specifications on the server, through the official document's
 * operations only: `listOpenAPISpecs`, `listOpenAPISpecVersions`,
 * `getLatestOpenAPISpecVersionContentRaw` (pull), `createOrUpdateOpenAPISpecBySlug` with
 * `source: { text }` (publish: the file's text as a new version) and `getLatestOpenAPISpecVersion`
 * (the version a publish made, when its answer leaves `lastVersion` out). What is listed is kept
 * in the mirror, for the commands that answer offline.
 *
 * A pull writes each spec's latest version into the organization's folder of the sync folder
 * (local.ts: `.openapi/` for the first organization, given once and kept) as `<slug>.yaml` or
 * `<slug>.json`, by its raw text's format. Nothing local is lost: a file edited here since the
 * pull that wrote it is kept, and when GitBook has a newer version too, that version is written
 * beside it as `<slug>.remote.<ext>`.
 */
import type { ApiClient } from '../api';
import { ApiError } from '../api';
import type { Mirror, RemoteOpenApiSpec, RemoteOpenApiVersion } from '../mirror';
import { sha256 } from '../sync';
import { readFileInside, writeFileAtomicStat } from '../sync';
import { OPENAPI_DIR } from './local';

/** The API's slug of a spec (its OpenAPISpecSlug pattern): anything else is never made a file name. */
export const SPEC_SLUG = /^[a-zA-Z0-9]+(?:-[a-zA-Z0-9]+)*$/;
const MAX_SLUG = 100;

export type PullResult =
  /** Written (new here, or the file was as the last pull left it). */
  | { kind: 'written'; slug: string; file: string; versionId: string | null }
  | { kind: 'up-to-date'; slug: string; file: string; versionId: string | null }
  /** Edited here; GitBook has nothing newer than what the edit started from. */
  | { kind: 'edited-here'; slug: string; file: string; versionId: string | null }
  /** Edited here and on GitBook: the file is kept, GitBook's version written beside it. */
  | { kind: 'both-edited'; slug: string; file: string; remoteFile: string; versionId: string | null }
  /** GitBook keeps no raw text of the latest version (a legacy one). */
  | { kind: 'no-raw'; slug: string }
  /** The server's slug is not one a file may be named by. */
  | { kind: 'bad-slug'; slug: string };

export interface PublishResult {
  spec: RemoteOpenApiSpec;
  created: boolean;
  versionId: string | null;
  /** The latest version before this one, as last listed (null: none known). */
  previousVersionId: string | null;
}

const now = () => new Date().toISOString();

/** Lists the organization's specs and keeps them in the mirror. */
export async function refreshSpecs(
  api: ApiClient,
  mirror: Pick<Mirror, 'openapi' | 'transaction'>,
  organizationId: string,
  signal?: AbortSignal,
): Promise<RemoteOpenApiSpec[]> {
  const specs = await api.listAll<RemoteOpenApiSpec>((c, query, params) => c.orgs.listOpenApiSpecs(organizationId, query, params), { signal });
  mirror.transaction(() => mirror.openapi.replaceSpecs(organizationId, specs, now()));
  return specs;
}

/** Lists a spec's versions (newest first, as the server lists them) and keeps them. */
export async function refreshVersions(
  api: ApiClient,
  mirror: Pick<Mirror, 'openapi' | 'transaction'>,
  organizationId: string,
  slug: string,
  signal?: AbortSignal,
): Promise<RemoteOpenApiVersion[]> {
  const versions = await api.listAll<RemoteOpenApiVersion>((c, query, params) => c.orgs.listOpenApiSpecVersions(organizationId, slug, query, params), {
    signal,
  });
  mirror.transaction(() => mirror.openapi.putVersions(organizationId, slug, versions, now()));
  return versions;
}

/** The folder of the sync folder the organization's spec files go in: given once, then kept. */
export function specFolder(mirror: Pick<Mirror, 'catalog' | 'openapi' | 'transaction'>, organizationId: string): string {
  const known = mirror.openapi.folder(organizationId);
  if (known) return known;
  const taken = new Set([...mirror.openapi.folders().values()].map((f) => f.toLowerCase()));
  const title = mirror.catalog.organizations().find((o) => o.id === organizationId)?.title ?? '';
  const slug = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  const candidates = [OPENAPI_DIR, `${OPENAPI_DIR}-${slug || organizationId}`, `${OPENAPI_DIR}-${organizationId}`];
  const folder = candidates.find((c) => !taken.has(c.toLowerCase())) ?? `${OPENAPI_DIR}-${organizationId}-${taken.size}`;
  mirror.transaction(() => mirror.openapi.setFolder(organizationId, folder));
  return folder;
}

/** Where GitBook's version goes when the file is kept: `pets.yaml` -> `pets.remote.yaml`. */
const besideAsRemote = (file: string, ext: string): string => `${file.replace(/\.(yaml|yml|json)$/i, '')}.remote.${ext}`;

/** How a spec's file stands against what the last pull (or publish) of it wrote. */
export type PulledState = 'not-pulled' | 'as-pulled' | 'edited' | 'missing';

/** The file a pull wrote for a spec, and whether it was edited here since. */
export async function pulledFile(
  mirror: Pick<Mirror, 'openapi'>,
  syncFolder: string,
  organizationId: string,
  slug: string,
): Promise<{ file: string | null; state: PulledState; versionId: string | null }> {
  const record = mirror.openapi.file(organizationId, slug);
  if (!record) return { file: null, state: 'not-pulled', versionId: null };
  const local = await localText(syncFolder, record.path).catch(() => null);
  const state = local === null ? 'missing' : local.hash === record.hash ? 'as-pulled' : 'edited';
  return { file: record.path, state, versionId: record.versionId };
}

/** The local file's text and hash, or null when there is none. */
async function localText(syncFolder: string, file: string): Promise<{ text: string; hash: string } | null> {
  try {
    const bytes = await readFileInside(syncFolder, file);
    return { text: bytes.toString('utf8'), hash: sha256(bytes) };
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return null;
    throw err;
  }
}

/** Pulls the latest version of each spec listed (or only `slug`) into the sync folder. */
export async function pullSpecs(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'openapi' | 'transaction'>,
  syncFolder: string,
  organizationId: string,
  specs: readonly RemoteOpenApiSpec[],
  signal?: AbortSignal,
): Promise<PullResult[]> {
  const results: PullResult[] = [];
  const folder = specs.length > 0 ? specFolder(mirror, organizationId) : null;
  const used = new Set(mirror.openapi.files(organizationId).map((f) => f.path.toLowerCase()));
  for (const spec of specs) {
    signal?.throwIfAborted();
    if (!SPEC_SLUG.test(spec.slug) || spec.slug.length > MAX_SLUG) {
      results.push({ kind: 'bad-slug', slug: spec.slug });
      continue;
    }
    const record = mirror.openapi.file(organizationId, spec.slug);
    const versionId = spec.lastVersion ?? null;
    const local = record ? await localText(syncFolder, record.path) : null;
    const editedHere = record !== null && local !== null && local.hash !== record.hash;
    if (record && local && record.versionId !== null && record.versionId === versionId) {
      results.push({ kind: editedHere ? 'edited-here' : 'up-to-date', slug: spec.slug, file: record.path, versionId });
      continue;
    }
    let raw: { text: string; format: 'json' | 'yaml' };
    try {
      raw = await api.call((c, params) => c.orgs.getLatestOpenApiSpecVersionContentRaw(organizationId, spec.slug, params), { signal });
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        results.push({ kind: 'no-raw', slug: spec.slug });
        continue;
      }
      throw err;
    }
    const ext = raw.format === 'json' ? 'json' : 'yaml';
    let file = record?.path ?? `${folder}/${spec.slug}.${ext}`;
    if (!record && used.has(file.toLowerCase())) file = `${folder}/${spec.slug}-${spec.id}.${ext}`;
    used.add(file.toLowerCase());
    const hash = sha256(raw.text);
    const existing = record ? local : await localText(syncFolder, file);
    if (existing && existing.hash === hash) {
      mirror.transaction(() => mirror.openapi.putFile({ organizationId, slug: spec.slug, path: file, versionId, hash, writtenAt: now() }));
      results.push({ kind: 'up-to-date', slug: spec.slug, file, versionId });
      continue;
    }
    // A file there that no pull wrote, or one edited since: kept; GitBook's version goes beside it.
    if (existing && (!record || editedHere)) {
      const remoteFile = besideAsRemote(file, ext);
      await writeFileAtomicStat(syncFolder, remoteFile, raw.text);
      results.push({ kind: 'both-edited', slug: spec.slug, file, remoteFile, versionId });
      continue;
    }
    // Written only if the file still holds what was read (a save made meanwhile is never replaced).
    const written = await writeFileAtomicStat(syncFolder, file, raw.text, existing ? { ifHolds: existing.hash } : { onlyIfAbsent: true });
    if (!written) {
      const remoteFile = besideAsRemote(file, ext);
      await writeFileAtomicStat(syncFolder, remoteFile, raw.text);
      results.push({ kind: 'both-edited', slug: spec.slug, file, remoteFile, versionId });
      continue;
    }
    mirror.transaction(() => mirror.openapi.putFile({ organizationId, slug: spec.slug, path: file, versionId, hash, writtenAt: now() }));
    results.push({ kind: 'written', slug: spec.slug, file, versionId });
  }
  return results;
}

/**
 * Sends `text` as a new version of `slug` (creating the spec when the slug is new). When `file`
 * is the file a pull wrote for this spec, its record moves to the new version: a later pull sees
 * it as GitBook's, not as an edit.
 */
export async function publishSpec(
  api: ApiClient,
  mirror: Pick<Mirror, 'openapi' | 'transaction'>,
  organizationId: string,
  slug: string,
  text: string,
  file: string | null,
  signal?: AbortSignal,
): Promise<PublishResult> {
  const before = mirror.openapi.specs(organizationId).find((s) => s.slug === slug);
  const answer = await api.call((c, params) => c.orgs.createOrUpdateOpenApiSpecBySlug(organizationId, slug, { source: { text } }, params), { signal });
  const spec = answer as unknown as RemoteOpenApiSpec;
  let versionId = spec.lastVersion ?? null;
  if (versionId === null) {
    const latest = await api.call((c, params) => c.orgs.getLatestOpenApiSpecVersion(organizationId, slug, params), { signal });
    versionId = latest.id;
  }
  mirror.transaction(() => {
    mirror.openapi.putSpec(organizationId, spec);
    const record = mirror.openapi.file(organizationId, slug);
    if (record && file !== null && record.path === file) mirror.openapi.putFile({ ...record, versionId, hash: sha256(text), writtenAt: now() });
  });
  return { spec, created: before === undefined, versionId, previousVersionId: before?.lastVersion ?? null };
}
