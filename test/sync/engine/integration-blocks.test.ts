/**
 * Issue 20: an integration's block (`{% @github-files/github-code-block url="…" %}`) and a block
 * of a name GitBook does not document are GitBook's to keep. The push guard does not hold the
 * page, the page arrives on the server byte for byte, and `quire check` finds no error in it.
 */
import { describe, expect, it } from 'vitest';
import type { FakeApi, SpaceRec } from '../../fake';
import { quire } from '../../helpers/cli';
import { contentBatches, openChangeRequests, pageByTitle, syncOnce, syncedGuideEachTest, write } from '../../helpers/sync';

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;

syncedGuideEachTest((world) => {
  ({ fake, space, root, dir } = world);
});

const BODY = [
  'Questions.',
  '',
  '{% @github-files/github-code-block url="https://github.com/GitbookIO/gitbook/blob/main/README.md" %}',
  '',
  '{% hint style="info" %}',
  '{% @mermaid/diagram content="graph TD; A-->B" fullWidth=\'true\' %}',
  '{% endhint %}',
  '',
  '{% details-of-our-own %}',
  '',
].join('\n');

describe('integration blocks and unknown blocks', () => {
  it('push the page untouched (no hold), and check finds no error in it', async () => {
    write(dir, 'faq.md', `# FAQ\n\n${BODY}`);
    const run = await syncOnce(fake, root);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/held|holds no block name/);
    const [cr] = openChangeRequests(fake, space.id);
    expect(cr).toBeDefined();
    expect(pageByTitle(fake, space.id, 'FAQ', cr!.id).markdown).toBe(BODY);
    expect(contentBatches(fake)).toHaveLength(1);

    const check = await quire(['check', '--dir', root, '--json']);
    expect(check.code, check.stdout).toBe(0);
    const problems = JSON.parse(check.stdout).spaces.flatMap((s: { problems: { file: string; severity: string; code: string }[] }) => s.problems);
    const onPage = problems.filter((p: { file: string }) => p.file === 'guide/faq.md');
    expect(onPage.map((p: { severity: string; code: string }) => [p.severity, p.code])).toEqual([['info', 'block-unknown-block']]);
  });
});
