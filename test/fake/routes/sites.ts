/** Sites: listing, sections, section groups, site spaces, share links, published profile. */
import type { SiteRec } from '../model';
import { paginate } from '../paging';
import { NotFoundError } from '../store';
import { created, noContent, ok, type RouteContext, type RouteTable } from './types';

const siteOf = (ctx: RouteContext): SiteRec => ctx.store.site(ctx.param('organizationId'), ctx.param('siteId'));

export const siteRoutes: RouteTable = {
  listSites: ({ store, json, param, query, pageSize }) => {
    const org = store.org(param('organizationId'));
    const sites = [...store.sites.values()]
      .filter((s) => s.orgId === org.id)
      .filter((s) => query.published === undefined || s.published === query.published)
      .filter((s) => query.title === undefined || s.title.toLowerCase().includes(String(query.title).toLowerCase()))
      .filter((s) => query.space === undefined || store.siteSpacesOf(s.id).some((ss) => ss.spaceId === query.space));
    return ok(paginate(sites, query, pageSize, (s) => json.site(s)));
  },

  getSiteById: (ctx) => ok(ctx.json.site(siteOf(ctx))),

  listSiteSections: (ctx) => {
    const site = siteOf(ctx);
    return ok(paginate(ctx.store.sectionsOf(site.id), ctx.query, ctx.pageSize, (s) => ctx.json.section(s)));
  },

  listSiteSectionGroups: (ctx) => {
    const site = siteOf(ctx);
    const groups = [...ctx.store.sectionGroups.values()].filter((g) => g.siteId === site.id);
    return ok(paginate(groups, ctx.query, ctx.pageSize, (g) => ctx.json.sectionGroup(g)));
  },

  listSiteSpaces: (ctx) => {
    const site = siteOf(ctx);
    const wanted = ctx.query.default;
    const list = ctx.store.siteSpacesOf(site.id).filter((s) => wanted === undefined || s.default === wanted);
    return ok(paginate(list, ctx.query, ctx.pageSize, (s) => ctx.json.siteSpace(s)));
  },

  listSiteShareLinks: (ctx) => {
    const site = siteOf(ctx);
    const search = typeof ctx.query.search === 'string' ? ctx.query.search.toLowerCase() : undefined;
    const links = [...ctx.store.shareLinks.values()]
      .filter((l) => l.siteId === site.id)
      .filter((l) => search === undefined || l.name.toLowerCase().includes(search) || l.key.includes(search));
    return ok(paginate(links, ctx.query, ctx.pageSize, (l) => ctx.json.shareLink(l)));
  },

  createSiteShareLink: (ctx) => {
    const site = siteOf(ctx);
    return created(ctx.json.shareLink(ctx.store.addShareLink(site.id, { name: String(ctx.body.name) })));
  },

  updateSiteShareLinkById: (ctx) => {
    const site = siteOf(ctx);
    const link = ctx.store.shareLinks.get(ctx.param('shareLinkId'));
    if (!link || link.siteId !== site.id) throw new NotFoundError(`share link "${ctx.param('shareLinkId')}" does not exist on site "${site.id}"`);
    if (typeof ctx.body.active === 'boolean') link.active = ctx.body.active;
    if (typeof ctx.body.name === 'string') link.name = ctx.body.name;
    return ok(ctx.json.shareLink(link));
  },

  deleteSiteShareLinkById: (ctx) => {
    const site = siteOf(ctx);
    const link = ctx.store.shareLinks.get(ctx.param('shareLinkId'));
    if (link && link.siteId === site.id) ctx.store.shareLinks.delete(link.id);
    return noContent();
  },

  getPublishedContentSite: (ctx) => {
    const site = siteOf(ctx);
    if (!site.published) throw new NotFoundError(`site "${site.id}" is not published`);
    return ok(ctx.json.published(site));
  },
};
