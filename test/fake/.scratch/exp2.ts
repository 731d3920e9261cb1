import { loadSpec } from '../openapi';
import { validateResponse } from '../validation';
const spec = loadSpec();
const layout = { width: 'default', cover: true, coverSize: 'hero', coverMask: 'none', title: true, description: true, tableOfContents: true, outline: true, pagination: true, metadata: true, tags: true, actions: true, anchors: true };
const mk = (i: number, pages: any[] = []) => ({ id: 'p' + i, title: 'Hello ' + i, kind: 'sheet', type: 'document', slug: 's' + i, path: 's' + i, urls: { app: 'https://app.example.com/p' + i }, pages, tags: [], documentId: 'doc' + i, layout, createdAt: new Date().toISOString(), updatedAt: new Date().toISOString() });
const op = spec.operations.get('getPageById')!;
let t = performance.now();
validateResponse(op, 200, mk(0));
console.log('first', (performance.now() - t).toFixed(1));
const page = { ...mk(1, [mk(2), mk(3, [mk(4)])]), markdown: 'x'.repeat(3000) };
t = performance.now();
for (let i = 0; i < 2000; i++) { const r = validateResponse(op, 200, page); if (!r.ok) throw new Error(r.message); }
console.log('2000 page validations (4 nodes each) ms', (performance.now() - t).toFixed(1));
// revision
const pages: any[] = [];
let n = 0;
for (let a = 0; a < 10; a++) { const l1: any[] = []; for (let b = 0; b < 10; b++) { const l2: any[] = []; for (let c = 0; c < 19; c++) l2.push(mk(n++)); l1.push(mk(n++, l2)); } pages.push(mk(n++, l1)); }
console.log('pages', n);
const rev = { object: 'revision', id: 'r1', parents: [], pages, files: [], reusableContents: [], tags: [], urls: { app: 'https://x.y/z' }, createdAt: new Date().toISOString(), type: 'edits', variables: {} };
const rop = spec.operations.get('getCurrentRevision')!;
t = performance.now();
console.log(JSON.stringify(validateResponse(rop, 200, rev)).slice(0, 300));
console.log('revision first ms', (performance.now() - t).toFixed(1));
t = performance.now();
for (let i = 0; i < 5; i++) validateResponse(rop, 200, rev);
console.log('revision x5 ms', (performance.now() - t).toFixed(1));
t = performance.now(); const s = JSON.stringify(rev); console.log('stringify ms', (performance.now() - t).toFixed(1), s.length);
