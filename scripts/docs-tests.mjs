// Writes docs/test-map.md from the code: for each source file in src/, the test files that load
// it — directly or through the test helpers, test/fake and the other shared files under test/ —
// read from the tests' imports (type-only imports bring no code and do not count).
// `--check` only compares, and exits 1 when the map is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { importsOf, sourceFiles } from './imports.mjs';

const DOC = 'docs/test-map.md';
const isTest = (file) => /\.test\.tsx?$/.test(file);
const posix = (file) => file.split(sep).join('/');

const isIndex = (file) => /[/\\]index\.tsx?$/.test(file);

/**
 * Adds to `sources` the source files that `names` of `file` come from (null: all it exports): a
 * module's index.ts passes names on, and the file that holds each name is the one that counts.
 */
function addSource(sources, file, names) {
  if (!isIndex(file)) return void sources.add(file);
  const reexports = importsOf(file, { types: false }).filter((i) => i.export);
  const given = (name) => reexports.some((r) => r.names?.some(([n, as]) => (as ?? n) === name));
  const star = reexports.some((r) => r.names === null);
  // A name no line passes on is the index's own (unless an `export *` passes it on).
  if (names === null || (!star && names.some((n) => !given(n)))) sources.add(file);
  for (const r of reexports) {
    let wanted;
    if (names === null) wanted = r.names?.map(([n]) => n) ?? null;
    else if (r.names === null) wanted = names.filter((n) => !given(n));
    else wanted = r.names.filter(([n, as]) => names.includes(as ?? n)).map(([n]) => n);
    if (wanted === null || wanted.length > 0) addSource(sources, r.target, wanted);
  }
}

/** The source files a test file loads: its imports, followed through the shared files under test/ and through src/'s index files. */
function sourcesLoadedBy(testFile) {
  const sources = new Set();
  const visited = new Set();
  const visit = (file) => {
    if (visited.has(file)) return;
    visited.add(file);
    for (const { target, names } of importsOf(file, { types: false })) {
      if (!/\.tsx?$/.test(target)) continue;
      if (target.startsWith(`src${sep}`)) addSource(sources, target, names?.map(([n]) => n) ?? null);
      else if (target.startsWith(`test${sep}`) && !isTest(target)) visit(target);
    }
  };
  visit(testFile);
  return sources;
}

function map() {
  const testsOf = new Map(sourceFiles('src').map((f) => [f, []]));
  const tests = sourceFiles('test', (dir) => dir === `test${sep}fixtures`)
    .filter(isTest)
    .sort();
  for (const t of tests) for (const s of sourcesLoadedBy(t)) testsOf.get(s)?.push(posix(relative('test', t)));
  const byFolder = new Map();
  for (const [file, list] of [...testsOf].sort(([a], [b]) => a.localeCompare(b))) {
    const folder = posix(relative('src', dirname(file)));
    if (!byFolder.has(folder)) byFolder.set(folder, []);
    byFolder.get(folder).push([posix(relative(dirname(file), file)), list]);
  }
  const untested = [...testsOf.values()].filter((l) => l.length === 0).length;
  const lines = [
    '# Which tests load each source file',
    '',
    'Generated from the imports by `npm run docs:tests`; CI checks it is current. A test file loads a',
    'source file it imports, directly or through the shared files under `test/` (helpers, the fake API);',
    'type-only imports do not count. Tests that run `quire` as a process, or the built renderer in',
    'Chromium, reach more than they import: a file with no test here may still be covered through those.',
    '',
    `${testsOf.size} source files; ${tests.length} test files; ${untested} source files no test imports.`,
  ];
  for (const [folder, files] of byFolder) {
    lines.push('', `## src/${folder}`, '', '| File | Tests |', '| --- | --- |');
    for (const [name, list] of files) lines.push(`| \`${name}\` | ${list.length === 0 ? '—' : list.map((t) => `\`${t}\``).join(' ')} |`);
  }
  return `${lines.join('\n')}\n`;
}

const next = map();
let doc = '';
try {
  doc = readFileSync(DOC, 'utf8');
} catch {
  // not written yet
}
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error(`${DOC}: the module → tests map is out of date with the tests' imports. Run \`npm run docs:tests\` and commit it.`);
    process.exit(1);
  }
} else if (next !== doc) {
  writeFileSync(DOC, next);
  console.log(`${DOC}: module → tests map updated.`);
}
