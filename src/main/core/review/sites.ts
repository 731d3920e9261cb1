/**
 * Mirrors an organization's sites: each site with its section groups,
 * sections, site spaces and share links. Sites carry no change marker, so
 * each refresh lists them again: one request per organization plus four per site.
 */
import type { ApiClient } from '../api';
import type { Mirror, RemoteSection, RemoteSectionGroup, RemoteShareLink, RemoteSite, RemoteSiteSpace, SiteParts } from '../mirror';

/** Lists and stores the organization's sites; returns how many there are. */
export async function mirrorSites(api: ApiClient, mirror: Pick<Mirror, 'sites' | 'transaction'>, organizationId: string): Promise<number> {
  const sites = await api.listAll<RemoteSite>((c, query, params) => c.orgs.listSites(organizationId, query, params));
  const parts: SiteParts[] = await Promise.all(
    sites.map(async (site) => {
      const [sections, groups, siteSpaces, shareLinks] = await Promise.all([
        api.listAll<RemoteSection>((c, q, p) => c.orgs.listSiteSections(organizationId, site.id, q, p)),
        api.listAll<RemoteSectionGroup>((c, q, p) => c.orgs.listSiteSectionGroups(organizationId, site.id, q, p)),
        api.listAll<RemoteSiteSpace>((c, q, p) => c.orgs.listSiteSpaces(organizationId, site.id, q, p)),
        api.listAll<RemoteShareLink>((c, q, p) => c.orgs.listSiteShareLinks(organizationId, site.id, q, p)),
      ]);
      return { site, sections, groups, siteSpaces, shareLinks };
    }),
  );
  mirror.transaction(() => mirror.sites.replace(organizationId, parts));
  return sites.length;
}
