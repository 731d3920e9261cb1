/**
 * The organization's sites as last listed (migration 2): sites, section groups, sections,
 * site spaces and share links, each row keeping the server's object.
 */
import type { Db } from '../database';

export interface RemoteSite {
  id: string;
  title: string;
  visibility: string;
  published: boolean;
}

export interface RemoteSiteSpace {
  id: string;
  title?: string;
  path: string;
  section?: string;
  space?: { id: string };
  default?: boolean;
  hidden?: boolean;
}

export interface RemoteSection {
  id: string;
  title: string;
  path: string;
  default?: boolean;
  sectionGroup?: string;
  siteSpaces?: RemoteSiteSpace[];
}

export interface RemoteSectionGroup {
  id: string;
  title: string;
  sectionGroup?: string;
  children?: { id: string }[];
}

export interface RemoteShareLink {
  id: string;
  name?: string;
  active?: boolean;
  createdAt: string;
}

export interface SiteParts {
  site: RemoteSite;
  sections: RemoteSection[];
  groups: RemoteSectionGroup[];
  siteSpaces: RemoteSiteSpace[];
  shareLinks: RemoteShareLink[];
}

export class SiteStore {
  constructor(private readonly db: Db) {}

  /** Replaces everything stored about an organization's sites. Call inside a transaction. */
  replace(organizationId: string, parts: readonly SiteParts[]): void {
    const db = this.db;
    const oldSites = `SELECT id FROM sites WHERE organization_id = ?`;
    for (const table of ['site_section_groups', 'site_sections', 'site_spaces', 'share_links']) {
      db.prepare(`DELETE FROM ${table} WHERE site_id IN (${oldSites})`).run(organizationId);
    }
    db.prepare(`DELETE FROM sites WHERE organization_id = ?`).run(organizationId);

    const insertSite = db.prepare(`INSERT INTO sites (id, organization_id, title, visibility, published, json) VALUES (?, ?, ?, ?, ?, ?)`);
    const insertGroup = db.prepare(
      `INSERT OR REPLACE INTO site_section_groups (id, site_id, parent_group_id, position, title, json) VALUES (?, ?, ?, ?, ?, ?)`,
    );
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
}
