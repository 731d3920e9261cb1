import type { Collection, Organization, Space } from '@gitbook/api';
import { ApiError, type ApiClient } from '../api';
import type { Mirror } from '../mirror';

/** Organizations are listed again at most this often (new ones are rare; their spaces are listed every cycle). */
const ORGANIZATIONS_MAX_AGE_MS = 10 * 60_000;

export interface CatalogSpace {
  id: string;
  title: string;
  revision: string;
}

export interface Catalog {
  /** Ids of the live spaces seen. */
  ids: string[];
  spaces: CatalogSpace[];
}

/**
 * Refreshes organizations and spaces (into the mirror, unless `store` is false) and returns the
 * live spaces it saw. With explicit space ids only those are fetched (one request each);
 * otherwise every space the token reaches is listed, organization by organization.
 * Organizations are listed again only every few minutes and collections only when a space
 * names one the mirror does not know yet, so an idle refresh costs one request per
 * organization.
 */
export async function refreshCatalog(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'transaction'>,
  only?: string[],
  options: { store?: boolean; now?: number } = {},
): Promise<Catalog> {
  const store = options.store ?? true;
  const at = new Date(options.now ?? Date.now()).toISOString();
  const shape = (s: Space): CatalogSpace => ({ id: s.id, title: s.title, revision: s.revision });
  if (only && only.length > 0) {
    const spaces = (await Promise.all(only.map((id) => api.call<Space>((c, params) => c.spaces.getSpaceById(id, {}, params))))).filter((s) => !s.deletedAt);
    if (store) {
      mirror.transaction(() => {
        for (const s of spaces) mirror.catalog.upsertSpace(s, s);
      });
    }
    return { ids: spaces.map((s) => s.id), spaces: spaces.map(shape) };
  }

  const listSpaces = (ids: readonly string[]) =>
    Promise.all(ids.map((id) => api.listAll<Space>((c, query, params) => c.orgs.listSpacesInOrganizationById(id, query, params))));
  const listOrgs = () => api.listAll<Organization>((c, query, params) => c.orgs.listOrganizationsForAuthenticatedUser(query, params));
  const cached = mirror.catalog.organizationsRefreshedAt();
  const fresh = cached !== null && Date.parse(at) - Date.parse(cached.oldest) < ORGANIZATIONS_MAX_AGE_MS;
  let orgs: Organization[] | null = fresh ? null : await listOrgs();
  let orgIds = orgs ? orgs.map((o) => o.id) : cached!.ids;
  let spacesByOrg: Space[][];
  try {
    spacesByOrg = await listSpaces(orgIds);
  } catch (err) {
    // An organization remembered is gone or out of reach (404, 403): list them again. Anything
    // else (a rejected token, the network) is the caller's to hear about.
    if (orgs || !(err instanceof ApiError) || (err.status !== 404 && err.status !== 403)) throw err;
    orgs = await listOrgs();
    orgIds = orgs.map((o) => o.id);
    spacesByOrg = await listSpaces(orgIds);
  }
  const spaces = spacesByOrg.flat().filter((s) => !s.deletedAt);
  const knownCollections = mirror.catalog.knownCollectionIds();
  const orgsMissingCollections = orgIds.filter((id) => spaces.some((s) => s.organization === id && s.parent && !knownCollections.has(s.parent)));
  const collections = (
    await Promise.all(
      orgsMissingCollections.map((id) => api.listAll<Collection>((c, query, params) => c.orgs.listCollectionsInOrganizationById(id, query, params))),
    )
  ).flat();

  if (store) {
    mirror.transaction(() => {
      for (const o of orgs ?? []) mirror.catalog.upsertOrganization(o, o, at);
      for (const c of collections) mirror.catalog.upsertCollection(c, c);
      for (const s of spaces) mirror.catalog.upsertSpace(s, s);
    });
  }
  return { ids: spaces.map((s) => s.id), spaces: spaces.map(shape) };
}
