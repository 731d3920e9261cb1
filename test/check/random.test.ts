/**
 * Random spaces: a generated space whose every link, anchor, image, include and SUMMARY.md entry
 * is right gets no problem at all (the check never calls working content broken), and one
 * random breakage of it gets exactly the one problem it should, at the right file and line.
 * Pure (no disk): the spaces are built in memory and checked through FolderIndex.
 *
 * Seeded; replay a failure with QUIRE_CHECK_SEED=<seed> (QUIRE_CHECK_RUNS for more runs).
 */
import { describe, expect, it } from 'vitest';
import { type CheckedSpace, checkSpaces, FolderIndex, fileKind, headingSlug, type ProblemCode } from '../../src/main/core/check';
import { mulberry32 } from '../helpers/random';

const SEED = Number(process.env.QUIRE_CHECK_SEED ?? Date.now() % 1_000_000);
const RUNS = Number(process.env.QUIRE_CHECK_RUNS ?? 60);

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'Ünïcode', 'setup', 'install', 'API keys', 'FAQ', 'café', 'step 2', 'über'];

interface Page {
  path: string;
  headings: string[];
  lines: string[];
}

function relative(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].map(encodeURIComponent).join('/').replace(/%2F/g, '/');
}

/** A space where everything resolves. */
function generate(random: () => number): Map<string, string> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const folders = ['', 'guide', 'guide/deep', 'reference', 'ünï'];
  const count = 3 + Math.floor(random() * 8);
  const pages: Page[] = [];
  for (let i = 0; i < count; i++) {
    const folder = pick(folders);
    const name = `${pick(WORDS).replace(/ /g, '-')}-${i}.md`;
    pages.push({ path: folder ? `${folder}/${name}` : name, headings: [`${pick(WORDS)} ${i}`, `${pick(WORDS)} ${i + 1}`], lines: [] });
  }
  const assets = ['.gitbook/assets/logo.png', '.gitbook/assets/guide (1).pdf'];
  for (const page of pages) {
    page.lines.push(`# Page ${page.path}`, '');
    for (const h of page.headings) page.lines.push(`## ${h}`, '', 'Some text.', '');
    for (let k = 0; k < 4; k++) {
      const target = pick(pages);
      const roll = random();
      if (roll < 0.3) page.lines.push(`See [it](${relative(page.path, target.path)}#${headingSlug(pick(target.headings))}).`);
      else if (roll < 0.45) page.lines.push(`![img](${relative(page.path, pick(assets))})`);
      else if (roll < 0.6)
        page.lines.push(`{% content-ref url="${relative(page.path, target.path)}" %}`, `[x](${relative(page.path, target.path)})`, '{% endcontent-ref %}');
      else if (roll < 0.7) page.lines.push(`{% include "${relative(page.path, '.gitbook/includes/note.md')}" %}`);
      else if (roll < 0.8) page.lines.push('{% hint style="info" %}', `Hint with [a link](#${headingSlug(pick(page.headings))}).`, '{% endhint %}');
      else page.lines.push('```md', '[not a link](nowhere.md)', '```');
      page.lines.push('');
    }
  }
  const files = new Map<string, string>();
  for (const p of pages) files.set(p.path, `${p.lines.join('\n')}\n`);
  files.set('.gitbook/includes/note.md', '---\ntitle: Note\n---\n\nA note. [Logo](../assets/logo.png), [the guide](../assets/guide%20%281%29.pdf).\n');
  for (const a of assets) files.set(a, '');
  files.set('SUMMARY.md', `# Table of contents\n\n${pages.map((p) => `* [${p.path}](${encodeURI(p.path)})`).join('\n')}\n`);
  return files;
}

function space(files: ReadonlyMap<string, string>): CheckedSpace {
  return {
    spaceId: null,
    title: 'random',
    folder: '',
    files: [...files].map(([path, text]) => {
      const kind = fileKind(path);
      return { path, kind, size: text.length, text: kind === 'asset' ? null : text, unreadable: null };
    }),
  };
}

const check = (files: ReadonlyMap<string, string>) => {
  const s = space(files);
  return checkSpaces(new FolderIndex([s])).flatMap((r) => r.problems);
};

/** One breakage: which file changes, how, and the problem it must cause (line: 1-based in the changed file, null for whole-file). */
type Breakage = { file: string; text: string; expect: { file: string; line: number | null; code: ProblemCode } };

function breakOne(random: () => number, files: Map<string, string>): Breakage {
  const pages = [...files.keys()].filter((p) => fileKind(p) === 'page').sort();
  const page = pages[Math.floor(random() * pages.length)]!;
  const lines = files.get(page)!.split('\n');
  const kinds = ['missing-page', 'missing-anchor', 'unclosed', 'unlisted', 'missing-image'] as const;
  const kind = kinds[Math.floor(random() * kinds.length)]!;
  const at = 2; // after the title line and its blank line
  const insert = (...added: string[]) => [...lines.slice(0, at), ...added, ...lines.slice(at)].join('\n');
  switch (kind) {
    case 'missing-page':
      return { file: page, text: insert('A [gone page](gone-away.md).'), expect: { file: page, line: at + 1, code: 'broken-link' } };
    case 'missing-anchor':
      return { file: page, text: insert(`A [bad anchor](#no-such-heading-${pages.length}).`), expect: { file: page, line: at + 1, code: 'broken-anchor' } };
    case 'unclosed':
      return { file: page, text: insert('{% hint style="warning" %}', 'never closed'), expect: { file: page, line: at + 1, code: 'block-unclosed' } };
    case 'missing-image':
      return { file: page, text: insert('<img src="nowhere-pic.png" alt="">'), expect: { file: page, line: at + 1, code: 'missing-asset' } };
    case 'unlisted': {
      const summary = files
        .get('SUMMARY.md')!
        .split('\n')
        .filter((l) => !l.includes(`(${encodeURI(page)})`));
      return { file: 'SUMMARY.md', text: summary.join('\n'), expect: { file: page, line: null, code: 'not-in-summary' } };
    }
  }
}

describe(`random spaces (seed ${SEED}, ${RUNS} runs; replay with QUIRE_CHECK_SEED=${SEED})`, () => {
  it('finds nothing in a space where everything resolves, and exactly one problem after one breakage', () => {
    console.log(`check on random spaces: seed ${SEED}, ${RUNS} runs (replay with QUIRE_CHECK_SEED=${SEED})`);
    for (let run = 0; run < RUNS; run++) {
      const random = mulberry32(SEED + run);
      const files = generate(random);
      const clean = check(files);
      expect(clean, `run ${run} (seed ${SEED + run}) clean space`).toEqual([]);
      const broken = breakOne(random, files);
      const after = new Map(files).set(broken.file, broken.text);
      const found = check(after).map((p) => ({ file: p.file, line: p.line, code: p.code }));
      expect(found, `run ${run} (seed ${SEED + run}): ${broken.expect.code} in ${broken.file}`).toEqual([broken.expect]);
    }
  });
});
