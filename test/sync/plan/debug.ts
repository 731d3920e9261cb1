// Replays a counterexample of plan.random.test.ts: `npx tsx test/sync/plan/debug.ts <file with the JSON counterexample>` prints the incremental and full plans and the trees they leave, to see where they differ.
import { readFileSync } from 'node:fs';
import { applyLocal, applyRemote, type Tokens } from './gen';
import { isNoop, World } from './world';
const [baseTree, pushedFirst, remoteOps, localOps, withhold] = JSON.parse(readFileSync(process.argv[2]!, 'utf8').replace(/__proto__:null,/g, ''));
const t: Tokens = { next: 1000, live: new Map() };
const show = (label: string, p: ReturnType<World['plan']>) =>
  console.log(
    label,
    JSON.stringify(p.fileOps.map((o) => ({ ...o, text: undefined }))),
    JSON.stringify(p.push.map((o) => ({ ...o, text: 'text' in o && o.text ? o.text.slice(0, 40) : undefined }))),
  );
const nodes = (w: World) =>
  JSON.stringify(
    [...w.nodes.values()].map((n) => [n.key, n.parentKey, n.position, n.name, n.path, n.folder, n.placedLocally ? 'L' : 'M', n.pending ? 'P' : '']),
  );
const w = World.initial(baseTree);
console.log('initial files', [...w.files.keys()].join(' '));
applyLocal(w, pushedFirst, t);
console.log('pushedFirst files', [...w.files.keys()].join(' '));
const p1 = w.plan(baseTree, { full: false });
show('plan1', p1);
w.apply(p1, baseTree);
console.log('nodes1', nodes(w));
const remoteTree = applyRemote(baseTree, remoteOps, t);
applyLocal(w, localOps, t);
console.log('cycle2 files', [...w.files.keys()].join(' '));
console.log('remote', remoteTree.map((p: { id: string; parentId: string | null; slug: string }) => `${p.id}<${p.parentId}:${p.slug}`).join(' '));
const wh = withhold ? new Set<string>(remoteTree.map((p: { id: string }) => p.id)) : undefined;
const full = w.clone();
const p2 = w.plan(remoteTree, { full: false, withhold: wh });
show('plan2 inc ', p2);
const p2f = full.plan(remoteTree, { full: true, withhold: wh });
show('plan2 full', p2f);
w.apply(p2, remoteTree);
full.apply(p2f, remoteTree);
console.log('files inc ', [...w.files.keys()].sort().join(' '));
console.log('files full', [...full.files.keys()].sort().join(' '));
console.log('nodes inc ', nodes(w));
console.log('nodes full', nodes(full));
const p3 = w.plan(remoteTree, { full: false });
console.log('plan3 inc noop', isNoop(p3));
show('plan3 inc', p3);
const p3f = w.plan(remoteTree, { full: true });
console.log('plan3 full noop', isNoop(p3f));
show('plan3 full', p3f);
console.log('live tokens', [...t.live.keys()].join(' '), 'remote ops', JSON.stringify(remoteOps), 'local ops', JSON.stringify(localOps));
console.log('remote bodies', JSON.stringify(remoteTree));
console.log('files', JSON.stringify([...w.files]));
console.log('cr', JSON.stringify([...w.crPages]));
