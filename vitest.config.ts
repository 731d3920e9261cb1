import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Projects over one list of test files, so every test is in exactly one of them.
 * `unit`: the fast tests, pure or on temp files and loopback sockets only — no keychain, no
 * browser, no mount, no spawned process, no wall-clock pacing (`npm run test:unit`, seconds).
 * `integration` and `integration-timed`: the rest — the fake API end to end, the CLI, the
 * service, the web host, Chromium, kill and disk faults, the keychain (`npm run test:integration`
 * runs both). `npm test` runs them all, in that order.
 */
const UNIT_FOLDERS = [
  'test/api/',
  'test/check/',
  'test/content/',
  'test/preview/',
  'test/mirror/',
  'test/search/',
  'test/history/',
  'test/sync/plan/',
  'test/sync/layout/',
  'test/hosts/electron/',
  'test/sync/moves.test.ts',
  'test/sync/memory.test.ts',
  'test/sync/scan.test.ts',
  'test/sync/apply.test.ts',
  'test/review/queue.test.ts',
];
const NOT_UNIT = new Set([
  'test/api/pacing.test.ts', // paces real requests against the wall clock (several seconds)
  'test/hosts/electron/build.test.ts', // spawns electron-vite to build the app
  'test/search/comments.test.ts', // review refreshes against the fake API
  'test/history/restore.test.ts', // quire sync against the fake API
  'test/history/crash.test.ts', // spawns a writer and kills it
  'test/mirror/other-writer.test.ts', // waits out SQLite's 5 s for another writer
]);

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

const all = testFiles(join('test'));
const CORES = availableParallelism();
const isUnit = (f: string) => UNIT_FOLDERS.some((d) => f.startsWith(d)) && !NOT_UNIT.has(f);
/**
 * The integration files that bound how long something takes on the wall clock (a command answers
 * at once, Offline is said within a second, a save shows within a second, requests keep their
 * pace): they run after the others, one file a core, so no other file's work stretches the time
 * they measure.
 */
const TIMED = new Set([
  'test/api/pacing.test.ts',
  'test/hosts/cli/folder-lock-at-once.test.ts',
  'test/hosts/cli/dead-api.test.ts',
  'test/hosts/cli/offline.test.ts',
  'test/hosts/cli/retry-after.test.ts',
  'test/hosts/cli/slow-server.test.ts', // 200 ms must do for the fake's quick answers
  'test/hosts/cli/summary-on-save.test.ts',
  'test/hosts/preview/live-reload.test.ts',
  'test/hosts/service/continuous.test.ts',
  'test/hosts/service/service.test.ts',
  'test/renderer/find.test.ts', // as many searches as typing pauses: keystrokes 20 ms apart
  'test/sync/engine/continuous.test.ts',
]);
/**
 * Files that replace a module (`vi.mock`) run each in a fresh module graph, as the mock needs; the
 * others share their worker's loaded modules from file to file (isolate: false), as the unit
 * project does: importing the sources and the fake afresh for each of ~150 files was ~40% of the
 * suite's CPU time.
 */
const MOCKING = new Set(all.filter((f) => !isUnit(f) && /\bvi\.(do)?[mM]ock\(/.test(readFileSync(f, 'utf8'))));
/**
 * The other integration files spend much of their time waiting (for the processes they start, a
 * command's retries while the fake is offline, SQLite's wait for another writer, Chromium): at one
 * file a core the two cores of the project's machines stood idle a fifth of the run (117 of 616
 * core-seconds, /proc/stat). Three files on two cores fill most of that (52 idle): 284 s against
 * 310 s for the whole `npm test`, the same tests passing. Not two a core: that once stretched a
 * banner's render in Chromium past the browser tests' waits (then 5 s, now 10 s) in a CI run.
 */
const WAITING_FILES_PER_CORE = 1.5;

/**
 * Each project's files longest first, by the seconds of test/durations.json (a full run's, files of
 * 5 s or more; the others after them, in vitest's order): a long file started late held up the end
 * of its group while the other cores stood idle. Vitest's own order comes from its cache of the last
 * run, which a fresh clone lacks and whose times swing with what ran beside each file. A new file
 * that takes long belongs in the list.
 */
const SECONDS: Record<string, number> = JSON.parse(readFileSync('test/durations.json', 'utf8'));
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (f: TestSpecification) => SECONDS[relative(f.project.config.root, f.moduleId)] ?? 0;
    // Vitest's order keeps each project's files together, groups in order: sort within each project.
    const byProject: TestSpecification[][] = [];
    for (const f of await super.sort(files)) {
      const last = byProject.at(-1);
      if (last?.[0]?.project === f.project) last.push(f);
      else byProject.push([f]);
    }
    return byProject.flatMap((specs) => specs.sort((a, b) => seconds(b) - seconds(a)));
  }
}

/** An integration project: the files of `include` not in the unit project, with the fake's global set-up. */
function integration(name: string, include: (f: string) => boolean, test: TestProjectInlineConfiguration['test'] = {}): TestProjectInlineConfiguration {
  return {
    extends: true,
    test: {
      name,
      include: all.filter((f) => !isUnit(f) && include(f)),
      globalSetup: ['test/global-setup.ts'],
      maxWorkers: Math.round(CORES * WAITING_FILES_PER_CORE),
      sequence: { groupOrder: 1 },
      ...test,
    },
  };
}

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // A poll waits for something to become true: on a loaded machine 1 s (vitest's default) is
    // not always enough for a browser round trip. A poll that asserts a bound says so itself.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    sequence: { sequencer: LongestFirst },
    setupFiles: ['test/fake/vitest-setup.ts'],
    projects: [
      // The unit project first (groupOrder), so its time is its own. Its files share a worker's
      // loaded modules (isolate: false halves its CPU time): a unit test mocks no module (vi.mock).
      { extends: true, test: { name: 'unit', include: all.filter(isUnit), maxWorkers: CORES, isolate: false, sequence: { groupOrder: 0 } } },
      integration('integration', (f) => !TIMED.has(f) && !MOCKING.has(f), { isolate: false }),
      integration('integration-mocks', (f) => MOCKING.has(f) && !TIMED.has(f)),
      // One worker a core, each running its files one after another in the modules it loaded for the
      // first (isolate: false): a fresh worker per file cost 1–2 s of start-up and imports between
      // files (the project took 34 s, now 25–26.5 s). No timed file mocks a module, fakes timers or leaves
      // an env or a listener behind.
      integration('integration-timed', (f) => TIMED.has(f), { maxWorkers: CORES, isolate: false, sequence: { groupOrder: 2 } }),
    ],
  },
});
