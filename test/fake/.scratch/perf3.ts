import { createServer } from 'node:http';
const server = createServer((req, res) => { const b = JSON.stringify({ ok: 1 }); res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(b.length) }); res.end(b); });
await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
const url = `http://127.0.0.1:${(server.address() as any).port}`;
await fetch(url);
let t = performance.now(); let next = 0;
await Promise.all(Array.from({ length: 8 }, async () => { while (next < 2000) { next++; const r = await fetch(url); await r.json(); } }));
console.log('raw 2000 x8', (performance.now() - t).toFixed(0));
server.close();
