/**
 * Issue 20, item 1: GitBook's path is kept wherever the volume holds it, and only there does a
 * page deviate, with `quire status` saying which page, GitBook's path, the local path and why.
 * A case-insensitive volume that refuses Windows' characters is an exFAT image mounted through
 * FUSE (root on Linux, `exfat-fuse` and `exfatprogs`); skipped where that cannot be mounted.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeApi, type FakeApi } from '../../fake';
import { tempDir } from '../../helpers/cli';
import { status, syncOnce } from '../../helpers/sync';
import { quire } from '../../helpers/cli';
import { Mirror } from '../../../src/main/core/mirror';

const GUIDE_LOWER = 'guideLowerPageId0001';

function run(cmd: string, args: string[]): string | null {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return null;
  }
}

/** Mounts a fresh exFAT image at `dir`: how to unmount it, or why this machine cannot. */
function mountExfat(dir: string): { unmount: () => void } | { why: string } {
  if (process.platform !== 'linux') return { why: 'mounting an exFAT image is done on Linux only' };
  if (process.getuid?.() !== 0) return { why: 'mounting a volume needs root' };
  const image = join(tempDir('quire-exfat-img-'), 'volume.img');
  if (run('truncate', ['-s', '64M', image]) === null) return { why: 'truncate could not make the image file' };
  if (run('mkfs.exfat', [image]) === null) return { why: 'mkfs.exfat is missing or failed (install exfatprogs)' };
  const loop = run('losetup', ['-f', '--show', image]);
  if (!loop) return { why: 'no loop device could be set up (losetup -f failed: a container without /dev/loop*?)' };
  if (run('mount.exfat-fuse', [loop, dir]) === null) {
    run('losetup', ['-d', loop]);
    return { why: 'mount.exfat-fuse is missing or failed (install exfat-fuse; FUSE needs /dev/fuse)' };
  }
  return {
    unmount: () => {
      run('umount', [dir]);
      run('losetup', ['-d', loop]);
      rmSync(image, { force: true });
    },
  };
}

const probe = mountExfat(tempDir('quire-exfat-probe-'));
const canMount = 'unmount' in probe;
if ('unmount' in probe) probe.unmount();
else
  console.warn(
    `exFAT test skipped: ${probe.why}. CI (.ci/run) and scripts/setup.sh install exfat-fuse and exfatprogs; it runs as root where FUSE is available.`,
  );

let fake: FakeApi;
let unmount: (() => void) | null = null;

beforeEach(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Acme' });
  fake.store.addSpace(org.id, {
    title: 'Docs',
    pages: [
      { title: 'Welcome', slug: 'welcome', markdown: 'Hello.\n' },
      { title: 'Guide', slug: 'Guide', markdown: 'The big guide.\n' },
      { id: GUIDE_LOWER, title: 'guide', slug: 'guide', markdown: 'The small guide.\n' },
      { title: 'Ratio a:b', slug: 'a:b', markdown: 'A colon.\n' },
      { title: 'F.A.Q.', slug: 'f.a.q.', markdown: 'Questions.\n' },
    ],
  });
});
afterEach(async () => {
  unmount?.();
  unmount = null;
  await fake.close();
});

const names = (dir: string) => readdirSync(dir).sort();

describe('where the volume cannot hold a GitBook name', () => {
  it('keeps every GitBook name on a case-sensitive Linux volume, and status reports nothing', async () => {
    const root = tempDir();
    const first = await syncOnce(fake, root);
    expect(first.code, first.stderr).toBe(0);
    expect(names(join(root, 'docs'))).toEqual(['Guide.md', 'README.md', 'SUMMARY.md', 'a:b.md', 'f.a.q..md', 'guide.md']);
    const json = JSON.parse((await status(root)).stdout) as { spaces: { deviations: unknown[] }[] };
    expect(json.spaces[0]!.deviations).toEqual([]);
  });

  it('status works the deviations out again when the folder changed since the cycle that kept them', async () => {
    const root = tempDir();
    expect((await syncOnce(fake, root)).code).toBe(0);
    const deviations = async () => (JSON.parse((await status(root)).stdout) as { spaces: { deviations: Record<string, unknown>[] }[] }).spaces[0]!.deviations;
    expect(await deviations()).toEqual([]);
    // The mirror says the page's file has another name than GitBook's (as a volume that refused it would).
    const mirror = Mirror.open(root);
    try {
      const spaceId = mirror.catalog.selectedSpaces()[0]!.id;
      const node = mirror.folder.node(spaceId, GUIDE_LOWER)!;
      mirror.transaction(() => mirror.folder.upsert(spaceId, { ...node, name: 'guide-2', path: 'guide-2.md' }));
    } finally {
      mirror.close();
    }
    expect(await deviations()).toEqual([expect.objectContaining({ pageId: GUIDE_LOWER, gitbookPath: 'guide.md', path: 'guide-2.md' })]);
  });

  it.skipIf(!canMount)('deviates on exFAT only for the case clash and the colon, and says so in quire status', async () => {
    const root = tempDir('quire-exfat-');
    mkdirSync(root, { recursive: true });
    const mounted = mountExfat(root);
    if (!('unmount' in mounted)) throw new Error(`the exFAT volume mounted once but not now: ${mounted.why}`);
    unmount = mounted.unmount;

    const first = await syncOnce(fake, root);
    expect(first.code, first.stderr).toBe(0);
    const short = GUIDE_LOWER.toLowerCase().slice(0, 8);
    expect(names(join(root, 'docs'))).toEqual(['Guide.md', 'README.md', 'SUMMARY.md', 'a-b.md', 'f.a.q..md', `guide-${short}.md`]);

    const json = JSON.parse((await status(root)).stdout) as { spaces: { deviations: Record<string, unknown>[] }[] };
    expect(json.spaces[0]!.deviations).toEqual([
      { pageId: GUIDE_LOWER, title: 'guide', gitbookPath: 'guide.md', path: `guide-${short}.md`, reason: 'case', below: 0 },
      expect.objectContaining({ title: 'Ratio a:b', gitbookPath: 'a:b.md', path: 'a-b.md', reason: 'characters', below: 0 }),
    ]);
    const text = (await quire(['status', '--dir', root], { env: {} })).stdout;
    expect(text).toContain("paths unlike GitBook's (GitBook's Git Sync writes them elsewhere): 2 pages");
    expect(text).toContain(
      `guide-${short}.md — GitBook: guide.md (“guide”): another page there has the same name in other letter case, and this volume does not tell case apart`,
    );
    expect(text).toContain('a-b.md — GitBook: a:b.md (“Ratio a:b”): the file system here cannot hold some of its characters');

    fake.resetLog();
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
