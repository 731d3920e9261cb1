/** The user, organisations, collections and spaces. */
import { paginate } from '../paging';
import { ok, type RouteTable } from './types';

export const accountRoutes: RouteTable = {
  getAuthenticatedUser: ({ store, json }) => ok(json.user(store.currentUser)),

  listOrganizationsForAuthenticatedUser: ({ store, json, query, pageSize }) => {
    const orgs = [...store.orgs.values()].filter((o) => o.memberIds.includes(store.currentUser.id));
    return ok(paginate(orgs, query, pageSize, (o) => json.org(o)));
  },

  getOrganizationById: ({ store, json, param }) => ok(json.org(store.org(param('organizationId')))),

  listMembersInOrganizationById: ({ store, json, param, query, pageSize }) => {
    const org = store.org(param('organizationId'));
    const search = typeof query.search === 'string' ? query.search.toLowerCase() : '';
    const users = org.memberIds
      .map((id) => store.user(id))
      .filter((u) => search === '' || u.displayName.toLowerCase().includes(search) || u.email.toLowerCase().includes(search));
    if (query.sort === 'name') users.sort((a, b) => a.displayName.localeCompare(b.displayName));
    if (query.order === 'desc' && query.sort === 'name') users.reverse();
    return ok(paginate(users, query, pageSize, (u) => json.member(u.id, org.createdAt)));
  },

  listSpacesInOrganizationById: ({ store, json, param, query, pageSize }) => {
    const org = store.org(param('organizationId'));
    const spaces = [...store.spaces.values()].filter((s) => s.orgId === org.id);
    return ok(paginate(spaces, query, pageSize, (s) => json.space(s)));
  },

  listCollectionsInOrganizationById: ({ store, json, param, query, pageSize }) => {
    const org = store.org(param('organizationId'));
    const collections = [...store.collections.values()].filter((c) => c.orgId === org.id && (query.nested !== false || c.parentId === undefined));
    return ok(paginate(collections, query, pageSize, (c) => json.collection(c)));
  },

  getCollectionById: ({ store, json, param }) => ok(json.collection(store.collection(param('collectionId')))),

  listSpacesInCollectionById: ({ store, json, param, query, pageSize }) => {
    const collection = store.collection(param('collectionId'));
    const spaces = [...store.spaces.values()].filter((s) => s.collectionId === collection.id);
    return ok(paginate(spaces, query, pageSize, (s) => json.space(s)));
  },

  getSpaceById: ({ store, json, param }) => ok(json.space(store.space(param('spaceId')))),
};
