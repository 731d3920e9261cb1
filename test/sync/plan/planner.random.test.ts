/**
 * The planner over random correlated trees: a synced base, then edits, additions, deletions,
 * moves and renames on the server and in the folder (some of them already pushed into an
 * open change request). Every plan must carry out cleanly, lose no edit, and leave nothing
 * for a second cycle to do.
 *
 * Fixed seed per run (printed); replay a failure with QUIRE_PLANNER_SEED=<seed>.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parsePageFile } from '../../../src/main/core/content';
import { apply, initialState, isNoop, plan, remoteOf } from './planner-sim';
import { applyLocal, applyRemote, arbLocalOp, arbRemoteOp, arbTree, expectNoLostEdit, pageFiles, type Tokens } from './planner-gen';

const SEED = Number(process.env.QUIRE_PLANNER_SEED ?? 20261122);
const RUNS = Number(process.env.QUIRE_PLANNER_RUNS ?? 400);

describe('planner over random correlated trees', () => {
  it(`terminates cleanly, loses no edit, and leaves a no-op second cycle (seed ${SEED})`, () => {
    console.log(`planner random test: seed ${SEED}, ${RUNS} runs (replay with QUIRE_PLANNER_SEED=${SEED})`);
    fc.assert(
      fc.property(
        arbTree,
        fc.array(arbLocalOp, { maxLength: 4 }),
        fc.array(arbRemoteOp, { maxLength: 5 }),
        fc.array(arbLocalOp, { maxLength: 5 }),
        (baseTree, pushedFirst, remoteOps, localOps) => {
          const t: Tokens = { next: 1000, live: new Map() };
          const s = initialState(baseTree);
          const baseRemote = remoteOf(baseTree);
          // Some local edits already went into an open change request.
          applyLocal(s, pushedFirst, t);
          apply(s, plan(s, baseRemote));
          expect(isNoop(plan(s, baseRemote))).toBe(true);

          const remoteTree = applyRemote(baseTree, remoteOps, t);
          applyLocal(s, localOps, t);
          const remote = remoteOf(remoteTree);
          apply(s, plan(s, remote));

          const second = plan(s, remote);
          expect(second.fileOps).toEqual([]);
          expect(second.push).toEqual([]);
          expect(isNoop(second)).toBe(true);
          expectNoLostEdit(s, t);
          // Whatever is held, every page file is a page the planner knows (nothing orphaned).
          for (const path of pageFiles(s)) expect(() => parsePageFile(s.files.get(path)!)).not.toThrow();
        },
      ),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
  });
});
