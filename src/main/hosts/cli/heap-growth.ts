/**
 * How far V8 lets the heap grow between two full collections, bounded for a command that talks to
 * the API (answers of up to 32 MiB, lists of up to 100 pages). Left to itself V8 lets the heap
 * reach up to 4x what survived the last full collection, so a command's peak memory depends on
 * when that one happened: 100 pages of a list that never ends peaked at ~181 MB on Node 20 and
 * ~209 MB on Node 24, whose V8 ran its second full collection later (live data ~38 MB then, not
 * ~28), and the heap then grew to ~140 MB before the next. At 2x, V8's own bound on machines with
 * less memory, the same runs peak at ~165-177 and ~172-184 MB, with no CPU cost beyond the noise.
 *
 * V8 reads this flag at every full collection (the young generation's size it reads only as it
 * starts: the launcher's first line sets that), so it is set here, once a command needs a client;
 * node:v8 loads the stream modules, which a command that sends no request never loads.
 */
let bounded = false;

export function boundHeapGrowth(): void {
  if (bounded) return;
  bounded = true;
  process.getBuiltinModule('node:v8').setFlagsFromString('--heap-growing-percent=100');
}
