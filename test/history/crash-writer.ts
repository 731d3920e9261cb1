/**
 * A process the crash test kills: writes page history (and the search index beside it) into
 * the mirror of `dir`, reporting each commit on stdout.
 *   mid-transaction: three committed versions, then a transaction that stops half-way and waits to be killed.
 *   stream: one version per transaction, forever.
 */
import { Mirror } from '../../src/main/core/mirror';

const [dir, mode] = process.argv.slice(2) as [string, 'mid-transaction' | 'stream'];
const mirror = Mirror.open(dir);
let clock = Date.parse('2026-11-24T00:00:00Z');
const text = (page: string, n: number) => `# ${page}\n\n${'A paragraph that stays. '.repeat(30)}\n\nRevision ${n} of ${page}.\n`;

function write(page: string, n: number): void {
  clock += 1000;
  const at = new Date(clock).toISOString();
  const version = mirror.history.record({ spaceId: 's1', pageId: page, path: `${page}.md`, title: page, text: text(page, n), reason: 'pulled', at });
  mirror.search.indexPage({ spaceId: 's1', key: page, path: `${page}.md`, title: page, description: '', body: `revision${n}` });
  if (!version) throw new Error(`version ${n} of ${page} was not recorded`);
}

if (mode === 'mid-transaction') {
  for (let n = 1; n <= 3; n++) mirror.transaction(() => write('p1', n));
  process.stdout.write('committed 3\n');
  mirror.transaction(() => {
    for (let n = 4; n <= 50; n++) write('p1', n);
    write('p2', 1);
    process.stdout.write('inside\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
  });
} else {
  for (let n = 1; ; n++) {
    const page = `p${n % 7}`;
    mirror.transaction(() => write(page, n));
    process.stdout.write(`ok ${page} ${n}\n`);
  }
}
