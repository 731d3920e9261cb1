/**
 * Check and preview benchmark (issue 12 targets, issue 20: with highlighting and math on), on a
 * generated 2,000-page space of ~3 KB pages in Git Sync layout (nested folders, SUMMARY.md,
 * links with anchors between pages, images, hints, tabs, code in several languages, math):
 * - `quire check` over the space, as a process (the bundled CLI; target < 2 s), and in process;
 * - `quire check` of a page whose frontmatter holds 20,000 keys (issue 17: it was quadratic);
 * - the preview's first render of a 3 KB page with math and code in three languages, request
 *   to full HTML (target < 200 ms): the first page with KaTeX and highlight.js to load;
 * - from a save to the browser showing the change, on that page (headless chromium; target < 1 s).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import { checkFolder } from '../../src/main/core/check';
import { startPreview } from '../../src/main/hosts/preview';
import { launchBrowser } from '../helpers/chromium';
import { mulberry32 } from '../helpers/random';
import { CLI, CLI_NODE_FLAGS, cliEnv } from './cli-process';

const PAGES = 2000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ms = (n: number) => `${Math.round(n)} ms`;

const WORDS = 'metrics server scrape target retention series label query alert dashboard panel export disk memory cluster node replica shard'.split(' ');

/** A page of about 3 KB with math (inline and block) and code in three languages: what the preview's first render is timed on. */
function mathAndCodePage(): string {
  const parts = ['# Math and code\n', 'The disk needed grows as $$n \\times r$$ for $$n$$ series kept $$r$$ days.\n'];
  parts.push('$$\n\\sum_{i=1}^{N} \\frac{s_i \\cdot r}{2^{k}} \\leq \\sqrt{\\int_0^\\infty e^{-x^2}\\,dx}\n$$\n');
  parts.push(
    '{% code title="server.js" lineNumbers="true" %}\n```javascript\nimport { createServer } from "node:http";\nconst port = Number(process.env.PORT ?? 9400);\ncreateServer((req, res) => res.end("hello " + req.url)).listen(port);\n```\n{% endcode %}\n',
  );
  parts.push('```python\ndef retention(series: int, days: int) -> int:\n    return series * days * 2\n```\n');
  parts.push('```bash\nlumen serve --port 9400 --retention 30d\n```\n');
  while (parts.join('\n').length < 2900) parts.push(`${WORDS.join(' ')}. With $$x_{${parts.length}}^2$$ in it.\n`);
  return parts.join('\n');
}

/** Writes the space; returns its folder and the path of one page of about 3 KB (with math and code). */
export function generateSpaceFolder(pages = PAGES, seed = 7): { dir: string; samplePage: string; paths: string[] } {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
  const sentence = () => Array.from({ length: 10 + Math.floor(random() * 8) }, () => pick(WORDS)).join(' ');
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-check-'));
  const paths: string[] = [];
  const folders = ['', 'guide', 'guide/install', 'reference', 'reference/api', 'ops', 'ops/alerts', 'ops/alerts/rules'];
  for (let i = 0; i < pages; i++) paths.push(posix.join(pick(folders), `page-${i}.md`));
  const rel = (from: string, to: string) => posix.relative(posix.dirname(from), to) || posix.basename(to);
  mkdirSync(join(dir, '.gitbook/assets'), { recursive: true });
  writeFileSync(join(dir, '.gitbook/assets/diagram.png'), 'png');
  paths.forEach((path, i) => {
    const parts = [`---\ndescription: ${sentence()}\n---\n\n# Page ${i}\n`];
    let section = 0;
    while (parts.join('\n').length < 3000) {
      const roll = random();
      if (roll < 0.15) parts.push(`## Section ${section++}\n`);
      else if (roll < 0.3) {
        const target = pick(paths);
        parts.push(`See [page](${rel(path, target)}#section-0) and [this one](#section-0).\n`);
      } else if (roll < 0.37) parts.push(`{% hint style="info" %}\n${sentence()}.\n{% endhint %}\n`);
      else if (roll < 0.42)
        parts.push(`{% tabs %}\n{% tab title="A" %}\n${sentence()}\n{% endtab %}\n{% tab title="B" %}\n${sentence()}\n{% endtab %}\n{% endtabs %}\n`);
      else if (roll < 0.47) parts.push(`![diagram](${rel(path, '.gitbook/assets/diagram.png')})\n`);
      else if (roll < 0.55) parts.push('```yaml\nretention: 30d\nlisten: 0.0.0.0:9400\n```\n');
      else if (roll < 0.58) parts.push(`The cost is $$${pick(WORDS)} \\times ${section + 1}$$ per day.\n`);
      else parts.push(`${sentence()}. ${sentence()}.\n`);
    }
    if (section === 0) parts.push('## Section 0\n');
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), parts.join('\n'));
  });
  const samplePage = 'math-and-code.md';
  writeFileSync(join(dir, samplePage), mathAndCodePage());
  writeFileSync(join(dir, 'SUMMARY.md'), `# Table of contents\n\n${paths.map((p, i) => `* [Page ${i}](${p})`).join('\n')}\n* [Math and code](${samplePage})\n`);
  return { dir, samplePage, paths };
}

/** `quire check` (in process) of one page whose frontmatter holds `keys` keys. */
function checkBigFrontmatter(keys: number): number {
  const dir = mkdtempSync(join(tmpdir(), 'quire-bench-frontmatter-'));
  try {
    writeFileSync(join(dir, 'README.md'), `---\n${Array.from({ length: keys }, (_, i) => `key${i}: value ${i}`).join('\n')}\n---\n\n# Page\n\nBody.\n`);
    writeFileSync(join(dir, 'SUMMARY.md'), '* [Page](README.md)\n');
    const t0 = performance.now();
    checkFolder(dir, null);
    return performance.now() - t0;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchCheckPreview(pages = PAGES): Promise<Record<string, string | number>> {
  const { dir, samplePage, paths } = generateSpaceFolder(pages);
  try {
    const cliRuns: number[] = [];
    let problems = 0;
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      const run = spawnSync(process.execPath, [...CLI_NODE_FLAGS, CLI, 'check', '--dir', dir, '--json'], {
        env: cliEnv(process.env),
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      });
      cliRuns.push(performance.now() - t0);
      if (run.status !== 0 && run.status !== 3) throw new Error(`quire check failed (${run.status}): ${run.stderr}`);
      problems = JSON.parse(run.stdout).spaces[0].problems.length;
    }
    const inProcess: number[] = [];
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now();
      checkFolder(dir, null);
      inProcess.push(performance.now() - t0);
    }
    const frontmatter = [5000, 20000].map((keys) => [keys, checkBigFrontmatter(keys)] as const);

    const server = await startPreview({ dir, log: () => undefined });
    const browser = await launchBrowser();
    try {
      const page = browser.page;
      // Every page lives under the secret's path (server.url ends with its slash).
      let serverRender = 0;
      const get = async (path: string) => {
        const t0 = performance.now();
        const res = await fetch(`${server.url}${path}`);
        const body = await res.text();
        if (res.status !== 200 || !body.includes('gb-page')) throw new Error(`preview of ${path}: ${res.status}`);
        serverRender = Number(/dur=([\d.]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] ?? Number.NaN);
        return performance.now() - t0;
      };
      // Node's fetch loads its HTTP client on the first call: warm it on a static file so only the render is timed.
      await fetch(`${server.url}_quire/preview.css`).then((r) => r.text());
      const first = await get(samplePage);
      const firstServer = serverRender;
      const others: number[] = [];
      for (const p of paths.slice(100, 120)) others.push(await get(p));

      await page.goto(`${server.url}${samplePage}`);
      const saves: number[] = [];
      const file = join(dir, samplePage);
      for (let k = 0; k < 10; k++) {
        const marker = `Saved edit number ${k} here.`;
        const t0 = Date.now();
        writeFileSync(file, `${readFileSync(file, 'utf8')}\n${marker}\n`);
        await page.getByText(marker).waitFor({ timeout: 5000 });
        saves.push(Date.now() - t0);
      }
      return {
        pages: paths.length,
        'problems found (the generated links are all valid)': problems,
        'quire check, whole process (median of 3; target < 2 s)': ms(median(cliRuns)),
        'quire check, in process (median of 3)': ms(median(inProcess)),
        ...Object.fromEntries(frontmatter.map(([keys, t]) => [`quire check of a page with ${keys.toLocaleString('en-US')} frontmatter keys (linear)`, ms(t)])),
        [`preview first render of a ${readFileSync(join(dir, samplePage)).length}-byte page, math and code on (target < 200 ms)`]: ms(first),
        '  of which rendering on the server': ms(firstServer),
        'preview first render of another page (median of 20)': ms(median(others)),
        'save to browser showing it (median of 10; target < 1 s)': ms(median(saves)),
        'save to browser, slowest of 10': ms(Math.max(...saves)),
      };
    } finally {
      await browser.close();
      await server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
