import { startFakeApi } from '../index';
const fake = await startFakeApi();
const s = fake.store;
const org = s.addOrg({ title: 'Acme Docs' });
const coll = s.addCollection(org.id, { title: 'Guides' });
const space = s.addSpace(org.id, { title: 'Handbook', parent: coll.id, pages: [
  { title: 'Welcome', markdown: '# Hi\n\nHello world' },
  { title: 'Guides', type: 'group', pages: [{ title: 'Install', markdown: 'npm i', pages: [{ title: 'Linux', markdown: 'apt' }] }, { title: 'Ext', type: 'link', href: 'https://example.com' }] },
] });
const file = s.addFile(space.id, { name: 'a.png', bytes: 'PNGDATA' });
const cr = s.addChangeRequest(space.id, { subject: 'Edit' });
const rev = s.currentRevision(space.id);
const [p1] = rev.children.get('')!;
const comment = s.addComment(space.id, { body: 'Nice', page: p1 });
s.addReply(space.id, comment.id, { body: 'Thanks' });
s.addSite(org.id, { title: 'Public docs', sections: [{ title: 'Main', spaces: [{ space: space.id }] }], groups: [{ title: 'Grp', sections: ['Main'] }], shareLinks: [{ name: 'beta' }] });
const site = [...s.sites.values()][0]!;
const get = async (path: string, init: RequestInit = {}) => {
  const r = await fetch(`${fake.url}/v1${path}`, { ...init, headers: { authorization: `Bearer ${fake.token}`, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const text = await r.text();
  console.log(r.status, init.method ?? 'GET', path, text.slice(0, 160).replace(/\n/g, ' '));
  return text ? JSON.parse(text) : undefined;
};
await get('/user');
await get('/orgs');
await get(`/orgs/${org.id}`);
await get(`/orgs/${org.id}/spaces`);
await get(`/orgs/${org.id}/collections`);
await get(`/collections/${coll.id}`);
await get(`/collections/${coll.id}/spaces`);
await get(`/spaces/${space.id}`);
await get(`/spaces/${space.id}/content`);
await get(`/spaces/${space.id}/content/pages`);
await get(`/spaces/${space.id}/content/files`);
await get(`/spaces/${space.id}/content/page/${p1}?format=markdown`);
await get(`/spaces/${space.id}/content/page/${p1}`);
await get(`/spaces/${space.id}/revisions/${rev.id}`);
await get(`/spaces/${space.id}/revisions/${rev.id}/changes`);
await get(`/spaces/${space.id}/revisions/${rev.id}/page/${p1}`);
await get(`/spaces/${space.id}/change-requests`);
await get(`/spaces/${space.id}/change-requests/1`);
const res = await get(`/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, { method: 'POST', body: JSON.stringify({ changes: [
  { operation: 'update_page', page: p1, document: { markdown: '---\ndescription: Desc\n---\n# New title\n\nBody' } },
  { operation: 'insert_page', document: { markdown: 'Child ![x](./img)' }, title: 'New child', into: p1, ref: 'n1' },
  { operation: 'insert_files', files: [{ name: 'x.txt', ref: 'img', base64: Buffer.from('hello').toString('base64') }] },
] }) });
await get(`/spaces/${space.id}/change-requests/${cr.id}/changes`);
await get(`/spaces/${space.id}/change-requests/${cr.id}/content/page/${p1}?format=markdown`);
await get(`/spaces/${space.id}/change-requests/${cr.id}/content/pages`);
await get(`/spaces/${space.id}/change-requests/${cr.id}`, { method: 'PATCH', body: JSON.stringify({ subject: 'Better' }) });
await get(`/spaces/${space.id}/change-requests/${cr.id}/merge`, { method: 'POST' });
const sp = await get(`/spaces/${space.id}`);
await get(`/spaces/${space.id}/revisions/${sp.revision}/changes`);
await get(`/spaces/${space.id}/comments`);
await get(`/spaces/${space.id}/comments?format=markdown&order=asc&status=open&targetPage=${p1}`);
await get(`/spaces/${space.id}/comments/${comment.id}`, { method: 'PUT', body: JSON.stringify({ resolved: true, addedReactions: ['👍'] }) });
await get(`/spaces/${space.id}/comments/${comment.id}/replies`);
await get(`/spaces/${space.id}/commenters`);
await get(`/spaces/${space.id}/comments`, { method: 'POST', body: JSON.stringify({ body: { markdown: 'hey' }, page: p1 }) });
await get(`/orgs/${org.id}/sites`);
await get(`/orgs/${org.id}/sites/${site.id}`);
await get(`/orgs/${org.id}/sites/${site.id}/sections`);
await get(`/orgs/${org.id}/sites/${site.id}/section-groups`);
await get(`/orgs/${org.id}/sites/${site.id}/site-spaces`);
await get(`/orgs/${org.id}/sites/${site.id}/share-links`);
await get(`/orgs/${org.id}/sites/${site.id}/published`);
const f = await fetch(`${fake.url}/blobs/${file.blobKey}/a.png`); console.log('blob', f.status, await f.text());
console.log('VIOLATIONS', fake.violations);
await fake.close();
