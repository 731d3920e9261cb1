/**
 * Continuous sync: in process, the watcher records saves in the mirror and turns a burst of
 * saves into one push; as the `quire sync` process, it keeps pulling until SIGTERM, then stops
 * cleanly.
 */
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { CLI, CLI_NODE_FLAGS, cliEnv } from '../../bench/cli-process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { ContinuousSync } from '../../../src/main/core/sync/continuous';
import { OwnWrites } from '../../../src/main/core/sync/own-writes';
import { SyncEngine, type CycleReport } from '../../../src/main/core/sync/engine';
import { startFakeApi, type FakeApi, type SpaceRec } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { contentBatches, openChangeRequests, pageByTitle, seedGuide } from '../../helpers/sync';
import { buildCli } from '../../helpers/cli-process';

beforeAll(() => buildCli(), 120_000);

describe('in process: ContinuousSync over the engine', () => {
  let fake: FakeApi;
  let space: SpaceRec;
  let root: string;
  let mirror: Mirror;
  let abort: AbortController;
  let sync: ContinuousSync;
  const reports: CycleReport[] = [];
  const recorded: { path: string; at: number }[] = [];
  const waiters: (() => void)[] = [];

  /** Resolves once `test()` holds, checked after every report or record; rejects after `ms`. */
  function until(test: () => boolean, ms = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      if (test()) return resolve();
      const waiter = () => {
        if (!test()) return;
        clearTimeout(timer);
        waiters.splice(waiters.indexOf(waiter), 1); // a settled wait is not asked again (its test may no longer run)
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        reject(new Error(`timed out; recorded: ${JSON.stringify(recorded)}, reports: ${reports.length}`));
      }, ms);
      waiters.push(waiter);
    });
  }
  const notify = () => {
    for (const w of [...waiters]) w();
  };

  beforeEach(async () => {
    fake = await startFakeApi();
    space = seedGuide(fake);
    root = tempDir();
    mirror = Mirror.open(root);
    abort = new AbortController();
    const api = new ApiClient({ baseUrl: fake.url, token: fake.token, signal: abort.signal });
    const ownWrites = new OwnWrites();
    const engine = new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] }, signal: abort.signal, ownWrites });
    sync = new ContinuousSync({
      mirror,
      root,
      ownWrites,
      runCycle: () => engine.runCycle(),
      intervalMs: 60_000,
      signal: abort.signal,
      onReport: (r) => {
        reports.push(r);
        notify();
      },
      onRecorded: (e) => {
        recorded.push({ path: e.path, at: Date.now() });
        notify();
      },
    });
    reports.length = 0;
    recorded.length = 0;
    await sync.start();
    await until(() => reports.length >= 1); // the first cycle pulls the space
    // The pull wrote while the folder was watched: the start-up is over once the watcher has told
    // those writes (the space's new folders among them) and a cycle has taken what it told.
    await sync.settled();
    await sync.syncNow();
  });
  afterEach(async () => {
    abort.abort();
    await sync.stop();
    mirror.close();
    await fake.close();
  });

  it('records a save in the mirror quickly, pushes it, and turns a burst of saves into one push', async () => {
    const file = join(root, 'guide/faq.md');
    const savedAt = Date.now();
    writeFileSync(file, '# FAQ\n\nFirst save.\n');
    await until(() => recorded.some((r) => r.path === 'guide/faq.md'));
    expect(recorded[0]!.at - savedAt).toBeLessThan(1000);
    expect(mirror.outbox.localEdits(space.id).map((e) => e.path)).toContain('faq.md');

    await until(() => reports.some((r) => r.spaces.some((s) => (s.push?.changes ?? 0) > 0)));
    const [cr] = openChangeRequests(fake, space.id);
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe('First save.\n');
    await until(() => mirror.outbox.localEdits(space.id).length === 0 || reports.length > 3);

    // A burst: ten saves 15 ms apart, as an editor's autosave does.
    const before = contentBatches(fake).length;
    const pushesBefore = reports.filter((r) => r.spaces.some((s) => (s.push?.changes ?? 0) > 0)).length;
    for (let i = 1; i <= 10; i++) {
      writeFileSync(file, `# FAQ\n\nSave number ${i}.\n`);
      await new Promise((r) => setTimeout(r, 15));
    }
    await until(() => pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown === 'Save number 10.\n');
    expect(contentBatches(fake).length - before).toBe(1);
    expect(reports.filter((r) => r.spaces.some((s) => (s.push?.changes ?? 0) > 0)).length - pushesBefore).toBe(1);
  });

  it('does not take the files a pull writes for saves', async () => {
    fake.store.editPage(space.id, pageByTitle(fake, space.id, 'FAQ').id, { markdown: 'Pulled.\n' });
    await sync.syncNow();
    expect(readFileSync(join(root, 'guide/faq.md'), 'utf8')).toContain('Pulled.');
    // A real save after the pull: once the watcher has reported it, it has reported the pull's write too.
    writeFileSync(join(root, 'guide/changelog.md'), '# Changelog\n\nA real save.\n');
    await until(() => recorded.some((r) => r.path === 'guide/changelog.md'));
    expect(recorded.map((r) => r.path)).not.toContain('guide/faq.md');
    expect(mirror.outbox.localEdits(space.id).map((e) => e.path)).not.toContain('faq.md');
  });

  it('ignores editor temp files and the state folder', async () => {
    for (const name of ['.faq.md.swp', 'faq.md~', '.#faq.md', '4913']) writeFileSync(join(root, 'guide', name), 'scratch');
    writeFileSync(join(root, 'guide/faq.md'), '# FAQ\n\nReal edit.\n');
    await until(() => recorded.some((r) => r.path === 'guide/faq.md'));
    expect(recorded.map((r) => r.path).filter((p) => /(swp|~|\.#faq\.md|4913)$/.test(p))).toEqual([]);
  });
});

describe('the `quire sync` process', () => {
  let fake: FakeApi;
  beforeEach(async () => {
    fake = await startFakeApi();
  });
  afterEach(async () => {
    await fake.close();
  });

  /** Resolves with the output so far once `pattern` appears in it; rejects after `ms`. */
  function waitForOutput(stream: NodeJS.ReadableStream, pattern: RegExp, ms: number): Promise<string> {
    return new Promise((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; saw: ${seen}`)), ms);
      stream.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (pattern.test(seen)) {
          clearTimeout(timer);
          resolve(seen);
        }
      });
    });
  }

  it('keeps syncing until SIGTERM, then stops cleanly with exit 0', async () => {
    const org = fake.store.addOrg({ title: 'Acme' });
    fake.store.addSpace(org.id, { title: 'Guide', pages: [{ title: 'Home', markdown: 'hi\n' }] });
    const dir = tempDir();
    const child = spawn(process.execPath, [...CLI_NODE_FLAGS, CLI, 'sync', '--api', fake.url, '--dir', dir, '--interval', '5'], {
      env: cliEnv({ ...process.env, QUIRE_TOKEN: fake.token }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waitForOutput(child.stdout, /\d+ pages? pulled from main/, 20_000);
    expect(existsSync(join(dir, 'guide/README.md'))).toBe(true);

    // A later remote change arrives on a following cycle without restarting.
    const space = [...fake.store.spaces.values()][0]!;
    fake.store.addPage(space.id, { title: 'News', markdown: 'fresh\n' });
    const stderr = waitForOutput(child.stderr, /Stopped\./, 20_000);
    await waitForOutput(child.stdout, /1 page pulled from main/, 20_000);
    expect(existsSync(join(dir, 'guide/news.md'))).toBe(true);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await stderr;
  }, 40_000);
});
