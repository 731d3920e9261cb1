/**
 * Mirrors an organization's sites: each site with its section groups,
 * sections, site spaces and share links. Sites carry no change marker, so
 * each refresh lists them again: one request per organization plus four per site.
 */
import type { ApiClient } from '../api/client';
import type { Mirror } from '../mirror';

interface RemoteSite {
  id: string;
  title: string;
  visibility: string;
  published: boolean;
}

interface RemoteSiteSpace {
  id: string;
  title?: string;
  path: string;
  section?: string;
  space?: { id: string };
  default?: boolean;
  hidden?: boolean;
}

interface RemoteSection {
  id: string;
  title: string;
  path: string;
  default?: boolean;
  sectionGroup?: string;
  siteSpaces?: RemoteSiteSpace[];
}

interface RemoteSectionGroup {
  id: string;
  title: string;
  sectionGroup?: string;
  children?: { id: string }[];
}

interface RemoteShareLink {
  id: string;
  name?: string;
  active?: boolean;
  createdAt: string;
}

interface SiteParts {
  site: RemoteSite;
  sections: RemoteSection[];
  groups: RemoteSectionGroup[];
  siteSpaces: RemoteSiteSpace[];
  shareLinks: RemoteShareLink[];
}

/** Lists and stores the organization's sites; returns how many there are. */
export async function mirrorSites(api: ApiClient, mirror: Mirror, organizationId: string): Promise<number> {
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
  mirror.transaction(() => writeSites(mirror, organizationId, parts));
  return sites.length;
}

function writeSites(mirror: Mirror, organizationId: string, parts: SiteParts[]): void {
  const db = mirror.db;
  const oldSites = `SELECT id FROM sites WHERE organization_id = ?`;
  for (const table of ['site_section_groups', 'site_sections', 'site_spaces', 'share_links']) {
    db.prepare(`DELETE FROM ${table} WHERE site_id IN (${oldSites})`).run(organizationId);
  }
  db.prepare(`DELETE FROM sites WHERE organization_id = ?`).run(organizationId);

  const insertSite = db.prepare(`INSERT INTO sites (id, organization_id, title, visibility, published, json) VALUES (?, ?, ?, ?, ?, ?)`);
  const insertGroup = db.prepare(`INSERT OR REPLACE INTO site_section_groups (id, site_id, parent_group_id, position, title, json) VALUES (?, ?, ?, ?, ?, ?)`);
  const insertSection = db.prepare(
    `INSERT OR REPLACE INTO site_sections (id, site_id, group_id, position, title, path, is_default, json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertSiteSpace = db.prepare(
    `INSERT OR REPLACE INTO site_spaces (id, site_id, section_id, space_id, position, title, path, is_default, hidden, json)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLink = db.prepare(`INSERT OR REPLACE INTO share_links (id, site_id, name, active, created_at, json) VALUES (?, ?, ?, ?, ?, ?)`);

  for (const { site, sections, groups, siteSpaces, shareLinks } of parts) {
    insertSite.run(site.id, organizationId, site.title, site.visibility, site.published ? 1 : 0, JSON.stringify(site));
    for (const [i, g] of groups.entries()) insertGroup.run(g.id, site.id, g.sectionGroup ?? null, i, g.title, JSON.stringify(g));
    // A section names its group; failing that, the group listing it among its children is its group.
    const groupOf = new Map<string, string>();
    for (const g of groups) for (const child of g.children ?? []) groupOf.set(child.id, g.id);
    for (const [i, s] of sections.entries()) {
      insertSection.run(s.id, site.id, s.sectionGroup ?? groupOf.get(s.id) ?? null, i, s.title, s.path, s.default ? 1 : 0, JSON.stringify(s));
    }
    // Site spaces come from their own list and from inside each section; either may be partial.
    const all = new Map<string, RemoteSiteSpace>();
    for (const ss of siteSpaces) all.set(ss.id, ss);
    for (const s of sections) for (const ss of s.siteSpaces ?? []) if (!all.has(ss.id)) all.set(ss.id, { ...ss, section: ss.section ?? s.id });
    for (const [i, ss] of [...all.values()].entries()) {
      insertSiteSpace.run(
        ss.id,
        site.id,
        ss.section ?? null,
        ss.space?.id ?? null,
        i,
        ss.title ?? ss.space?.id ?? ss.path,
        ss.path,
        ss.default ? 1 : 0,
        ss.hidden ? 1 : 0,
        JSON.stringify(ss),
      );
    }
    for (const l of shareLinks) insertLink.run(l.id, site.id, l.name ?? null, l.active === false ? 0 : 1, l.createdAt, JSON.stringify(l));
  }
}
