import { startFakeApi } from '../index';
const fake = await startFakeApi();
const h = { authorization: `Bearer ${fake.token}` };
await fetch(`${fake.url}/v1/user`, { headers: h });
let t = performance.now();
let next = 0;
await Promise.all(Array.from({ length: 8 }, async () => {
  while (next < 2000) { next++; const r = await fetch(`${fake.url}/v1/user`, { headers: h }); await r.json(); }
}));
console.log('2000 GET /user x8', (performance.now() - t).toFixed(0));
console.log(fake.stats.validationMs / fake.stats.handled, fake.stats.handlerMs / fake.stats.handled);
await fake.close();
