import { startFakeApi } from '../index';
import { generateSpace, seedDemo } from '../seed';
let t = performance.now();
const fake = await startFakeApi();
console.log('start ms', (performance.now() - t).toFixed(1));
t = performance.now();
const org = fake.store.addOrg({ title: 'Bench org' });
const space = generateSpace(fake.store, org.id, { pages: 2000, bytesPerPage: 3000, depth: 4, seed: 7 });
console.log('generate ms', (performance.now() - t).toFixed(1));
seedDemo(fake.store);
const h = { authorization: `Bearer ${fake.token}` };
t = performance.now();
const rev = await (await fetch(`${fake.url}/v1/spaces/${space.id}/content`, { headers: h })).json();
console.log('revision fetch ms (first, incl compile)', (performance.now() - t).toFixed(1));
t = performance.now();
await (await fetch(`${fake.url}/v1/spaces/${space.id}/content`, { headers: h })).json();
console.log('revision fetch ms (second)', (performance.now() - t).toFixed(1));
const ids: string[] = [];
const walk = (ps: any[]) => { for (const p of ps) { ids.push(p.id); walk(p.pages ?? []); } };
walk(rev.pages);
console.log('pages', ids.length);
// warm page validator
t = performance.now();
await (await fetch(`${fake.url}/v1/spaces/${space.id}/content/page/${ids[0]}?format=markdown`, { headers: h })).json();
console.log('first page fetch (compile) ms', (performance.now() - t).toFixed(1));
fake.stats.handled = 0; fake.stats.validationMs = 0; fake.stats.handlerMs = 0;
t = performance.now();
let next = 0;
await Promise.all(Array.from({ length: 8 }, async () => {
  while (next < ids.length) {
    const id = ids[next++];
    const r = await fetch(`${fake.url}/v1/spaces/${space.id}/content/page/${id}?format=markdown`, { headers: h });
    const j = await r.json();
    if (!j.markdown) throw new Error('no markdown');
  }
}));
const total = performance.now() - t;
console.log(`2000 pages x8: ${total.toFixed(0)} ms; per request ${(total / ids.length).toFixed(3)} ms wall`);
console.log(`validation per request ${(fake.stats.validationMs / fake.stats.handled).toFixed(3)} ms; handler per request ${(fake.stats.handlerMs / fake.stats.handled).toFixed(3)} ms`);
console.log('violations', fake.violations.length, fake.violations.slice(0, 3));
await fake.close();
