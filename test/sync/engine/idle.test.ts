/**
 * Continuous sync with nothing changing (issue 21, item 5): the watcher is the source of local
 * changes, so an idle cycle looks at nothing inside the space folder (only the folder itself, to
 * know it is still there), asks the server one cheap question (its spaces, with their revisions),
 * and does not sweep history's retention every few seconds. Counted through node:fs and the
 * fake's log, never timed.
 */
import { sep } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { ContinuousSync } from '../../../src/main/core/sync/continuous';
import { type CycleReport, type CycleRequest, SyncEngine } from '../../../src/main/core/sync/engine';
import { OwnWrites } from '../../../src/main/core/sync/own-writes';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { seedGuide } from '../../helpers/sync';

/** Every path node:fs is asked about, by the sync's own code (the watcher's library is not ours to count). */
const fsLog = vi.hoisted(() => ({ paths: [] as string[] }));

/** `fn`, counting the path it is asked about. */
const counted = vi.hoisted(
  () =>
    <F extends (...args: never[]) => unknown>(fn: F): F =>
      ((...args: Parameters<F>) => {
        if (typeof args[0] === 'string') fsLog.paths.push(args[0]);
        return fn(...args);
      }) as F,
);

// The sync core reads through fs.promises (loaded on first use), so its functions are counted too.
vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs')>();
  const wrap = <T extends object>(of: T, names: readonly (keyof T)[]) =>
    Object.fromEntries(names.map((n) => [n, counted(of[n] as (...args: never[]) => unknown)]));
  const sync = wrap(real, [
    'lstatSync',
    'statSync',
    'readdirSync',
    'readFileSync',
    'openSync',
    'existsSync',
    'opendirSync',
    'lstat',
    'stat',
    'readdir',
    'readFile',
  ]);
  const promises = { ...real.promises, ...wrap(real.promises, ['lstat', 'stat', 'readdir', 'readFile', 'open', 'opendir', 'mkdir', 'access', 'realpath']) };
  const realpathSync = Object.assign(counted(real.realpathSync), { native: counted(real.realpathSync.native) });
  const fs = { ...real, ...sync, realpathSync, promises };
  return { ...fs, default: fs };
});

let fake: FakeApi;
let space: string;
let root: string;
let mirror: Mirror;
let abort: AbortController;
let sync: ContinuousSync;
const cycles: { request: CycleRequest; report: CycleReport }[] = [];
const waiters: (() => void)[] = [];

/** Resolves once `n` cycles have reported (checked after each report); rejects after `ms`. */
function cyclesDone(n: number, ms = 20_000): Promise<void> {
  return cyclesUntil(() => cycles.length >= n, ms);
}

/** Resolves once `done()` holds after a report (or already holds); rejects after `ms`. */
function cyclesUntil(done: () => boolean, ms = 20_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!done()) return;
      clearTimeout(timer);
      waiters.splice(waiters.indexOf(check), 1);
      resolve();
    };
    const timer = setTimeout(() => reject(new Error(`timed out after ${cycles.length} cycles`)), ms);
    waiters.push(check);
    check();
  });
}

beforeEach(async () => {
  fake = await startFakeApi();
  space = seedGuide(fake).id;
  root = tempDir();
  mirror = Mirror.open(root);
  abort = new AbortController();
  const api = new ApiClient({ baseUrl: fake.url, token: fake.token, signal: abort.signal });
  const ownWrites = new OwnWrites();
  const engine = new SyncEngine({ api, mirror, root, spaces: { ids: [space] }, signal: abort.signal, ownWrites });
  cycles.length = 0;
  sync = new ContinuousSync({
    mirror,
    root,
    ownWrites,
    runCycle: async (request) => {
      const report = await engine.runCycle(request);
      cycles.push({ request, report });
      for (const w of [...waiters]) w();
      return report;
    },
    // Timer cycles back to back: each is an idle cycle once the start-up ones are done.
    intervalMs: 50,
    signal: abort.signal,
  });
  await sync.start(); // the watch set, then the one cycle over everything (the pull)
  // The pull wrote while the folder was watched: the start-up is over once the watcher has told
  // each of those writes (the engine's own, not saves) and a cycle has taken what it told.
  await sync.settled();
  await sync.syncNow();
  await cyclesUntil(() => cycles.some((c) => c.request.changed !== 'all'));
});

afterEach(async () => {
  abort.abort();
  await sync.stop();
  mirror.close();
  await fake.close();
});

it('an idle cycle looks at nothing in the space folder and asks the server one question', async () => {
  const folder = `${root}${sep}guide`;
  // The start-up's cycle over everything read the folder: the count sees what the sync looks at.
  expect(fsLog.paths.filter((p) => p.startsWith(`${folder}${sep}`)).length).toBeGreaterThan(0);
  const prune = vi.spyOn(mirror.history, 'prune');
  fsLog.paths.length = 0;
  fake.resetLog();
  const before = cycles.length;
  await cyclesDone(before + 4);
  const idle = cycles.slice(before, before + 4);

  expect(idle.map((c) => c.request)).toEqual(idle.map(() => ({ changed: [] })));
  expect(idle.every((c) => c.report.spaces.every((s) => s.pull === null && s.push === null))).toBe(true);
  // The folder itself may be looked at (is it still there?); nothing inside it is, not even a stat.
  expect(fsLog.paths.filter((p) => p.startsWith(`${folder}${sep}`))).toEqual([]);
  // One request a cycle: the space, whose revision says main has not moved (no tree, no page, no change request asked for).
  expect(idle.map((c) => c.report.requests)).toEqual([1, 1, 1, 1]);
  expect(new Set(fake.requests.map((r) => `${r.method} ${r.path}`))).toEqual(new Set([`GET /v1/spaces/${space}`]));
  // History's retention sweep ran with the start-up cycles, not again every few seconds.
  expect(prune).not.toHaveBeenCalled();
});
