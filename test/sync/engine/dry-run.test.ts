/**
 * `quire sync --dry-run` reads and says, and changes nothing: no write request, no file, no
 * mirror byte. And the push guard: a page whose push would damage it on the server is held.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FakeApi, SpaceRec } from '../../fake';
import { contentBatches, pageByTitle, read, remove, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

/** Every file under the sync folder (the mirror's included), with its bytes. */
function snapshot(): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel))) {
      const path = rel ? `${rel}/${name}` : name;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (!name.endsWith('.lock') && !name.endsWith('.lock.json')) out.set(path, readFileSync(join(root, path)).toString('base64'));
    }
  };
  walk('');
  return out;
}

describe('quire sync --dry-run', () => {
  it('says what a cycle would pull, push and hold, and writes nothing anywhere', async () => {
    write(dir, 'faq.md', '# FAQ\n\nQuestions, edited here.\n');
    write(dir, 'new-page.md', '# New page\n\nHello.\n');
    remove(dir, 'changelog.md');
    fake.store.editPage(space.id, pageByTitle(fake, space.id, 'Install').id, { markdown: 'Installed differently.\n' });
    fake.store.addPage(space.id, { title: 'Upgrade', markdown: 'Upgrade notes.\n' });
    const before = snapshot();

    const run = await syncOnce(fake, root, '--dry-run');
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/pull changed\s+getting-started\/install\.md/);
    expect(run.stdout).toMatch(/pull new\s+upgrade\.md/);
    expect(run.stdout).toMatch(/push update\s+faq\.md/);
    expect(run.stdout).toMatch(/push insert\s+new-page\.md/);
    expect(run.stdout).toMatch(/push delete\s+changelog\.md/);
    expect(run.stdout).toMatch(/Dry run: nothing was written, nothing was sent/);

    expect(fake.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(snapshot()).toEqual(before);

    const json = JSON.parse((await syncOnce(fake, root, '--dry-run', '--json')).stdout);
    expect(json.dryRun).toBe(true);
    expect(json.spaces[0].push.insert).toEqual(['new-page.md']);
    expect(snapshot()).toEqual(before);

    // The real cycle then does what the dry run said.
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(read(dir, 'upgrade.md')).toContain('Upgrade notes.');
    expect(existsSync(join(dir, 'changelog.md'))).toBe(false);
  });
});

describe('the push guard', () => {
  it('holds a page whose push would damage it on the server, says why, and pushes it once fixed', async () => {
    write(dir, 'faq.md', '# FAQ\n\n{% hint style="info" %}\nNever closed.\n');
    const run = await syncOnce(fake, root);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/faq\.md is not pushed: .*hint.*\(line \d+\)\. Fix the file/);
    expect(contentBatches(fake)).toHaveLength(0);

    write(dir, 'faq.md', '# FAQ\n\n{% hint style="info" %}\nClosed now.\n{% endhint %}\n');
    expect((await syncOnce(fake, root)).code).toBe(0);
    expect(contentBatches(fake)).toHaveLength(1);
  });
});
