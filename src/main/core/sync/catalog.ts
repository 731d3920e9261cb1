import type { Collection, Organization, Space } from '@gitbook/api';
import type { ApiClient } from '../api/client';
import type { Mirror } from '../mirror';

/**
 * Refreshes organizations and spaces into the mirror and returns the ids of
 * the live spaces it saw. With explicit space ids only those are fetched (one request
 * each); otherwise every space the token reaches is listed, organization by
 * organization. Collections are listed only when a space names one the
 * mirror does not know yet, so an idle refresh stays at a constant handful
 * of requests.
 */
export async function refreshCatalog(api: ApiClient, mirror: Mirror, only?: string[]): Promise<string[]> {
  const at = new Date().toISOString();
  if (only && only.length > 0) {
    const spaces = await Promise.all(only.map((id) => api.call<Space>((c, params) => c.spaces.getSpaceById(id, {}, params))));
    mirror.transaction(() => {
      for (const s of spaces) mirror.catalog.upsertSpace(s, s);
    });
    return spaces.filter((s) => !s.deletedAt).map((s) => s.id);
  }

  const orgs = await api.listAll<Organization>((c, query, params) => c.orgs.listOrganizationsForAuthenticatedUser(query, params));
  const spacesByOrg = await Promise.all(orgs.map((o) => api.listAll<Space>((c, query, params) => c.orgs.listSpacesInOrganizationById(o.id, query, params))));
  const spaces = spacesByOrg.flat().filter((s) => !s.deletedAt);
  const knownCollections = mirror.catalog.knownCollectionIds();
  const orgsMissingCollections = orgs.filter((o) => spaces.some((s) => s.organization === o.id && s.parent && !knownCollections.has(s.parent)));
  const collections = (
    await Promise.all(
      orgsMissingCollections.map((o) => api.listAll<Collection>((c, query, params) => c.orgs.listCollectionsInOrganizationById(o.id, query, params))),
    )
  ).flat();

  mirror.transaction(() => {
    for (const o of orgs) mirror.catalog.upsertOrganization(o, o, at);
    for (const c of collections) mirror.catalog.upsertCollection(c, c);
    for (const s of spaces) mirror.catalog.upsertSpace(s, s);
  });
  return spaces.map((s) => s.id);
}
