/**
 * Memory during a large pull. V8 collects lazily: left to itself, a pull of tens of thousands
 * of pages holds hundreds of megabytes of garbage before a full collection runs. A pull of more
 * than LARGE_PULL pages asks for one between its steps (tree, plan, files, SUMMARY.md) and every
 * COLLECT_EVERY files written, so the process stays near what it really holds; a full
 * collection of such a heap takes tens of milliseconds, against minutes of pulling.
 */

/** Pages (or file operations) from which a pull counts as large. */
export const LARGE_PULL = 5000;
/** A large pull collects every this many files written. */
export const COLLECT_EVERY = 2000;

let collect: (() => void) | null | undefined;

/** A full garbage collection, where the runtime lets us ask for one (otherwise nothing). */
export function collectGarbage(): void {
  if (collect === undefined) collect = findCollector();
  collect?.();
}

/**
 * V8's `gc`: the one `node --expose-gc` gives, else one taken from a new context while that flag
 * is on, the flag put back at once (the sync's own context is left as it is): a code cache V8
 * makes later carries a digest of its flags, and with the flag left on, the one `quire` makes as
 * it exits would be refused by its next run, which would compile everything again.
 */
function findCollector(): (() => void) | null {
  const given = (globalThis as { gc?: () => void }).gc;
  if (given) return given;
  try {
    const v8 = process.getBuiltinModule('node:v8');
    v8.setFlagsFromString('--expose-gc');
    try {
      return process.getBuiltinModule('node:vm').runInNewContext('gc') as () => void;
    } finally {
      v8.setFlagsFromString('--no-expose-gc');
    }
  } catch {
    return null;
  }
}
