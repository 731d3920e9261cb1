// Writes the module diagram of docs/architecture.md from the code: reads every import in src/,
// groups files into modules (core/<name>, hosts/<name>, shared, renderer; the planner folder
// core/sync/plan on its own), and renders the module-to-module edges as Mermaid between the
// graph markers. `--check` only compares, and exits 1 when the doc is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { importsOf, sourceFiles } from './imports.mjs';

const DOC = 'docs/architecture.md';
const START = '<!-- graph:start (npm run docs:graph) -->';
const END = '<!-- graph:end -->';

/** The module a source file belongs to, e.g. src/main/core/sync/engine.ts -> core/sync. */
function moduleOf(file) {
  const parts = relative('src', file).split(sep);
  if (parts[0] !== 'main') return parts[0]; // shared, renderer
  if (parts[1] === 'core' && parts[2] === 'sync' && parts[3] === 'plan') return 'core/sync/plan';
  return parts.length > 3 ? `${parts[1]}/${parts[2]}` : parts[1];
}

function edges() {
  const found = new Map();
  for (const file of sourceFiles('src')) {
    for (const { target } of importsOf(file)) {
      if (!target.startsWith(`src${sep}`)) continue;
      const a = moduleOf(file);
      const b = moduleOf(target);
      if (a !== b) found.set(`${a} --> ${b}`, [a, b]);
    }
  }
  return [...found.values()].sort(([a1, b1], [a2, b2]) => a1.localeCompare(a2) || b1.localeCompare(b2));
}

const id = (module) => module.replaceAll('/', '_');
const LAYERS = [
  ['Hosts', (m) => m.startsWith('hosts/')],
  ['Core', (m) => m.startsWith('core/')],
  ['UI', (m) => m === 'renderer' || m === 'shared'],
];

function mermaid() {
  const list = edges();
  const modules = [...new Set(list.flat())].sort();
  const lines = ['```mermaid', 'graph LR'];
  for (const [layer, test] of LAYERS) {
    lines.push(`  subgraph ${layer}`);
    for (const m of modules.filter(test)) lines.push(`    ${id(m)}["${m}"]`);
    lines.push('  end');
  }
  for (const [a, b] of list) lines.push(`  ${id(a)} --> ${id(b)}`);
  lines.push('```');
  return lines.join('\n');
}

const doc = readFileSync(DOC, 'utf8');
const start = doc.indexOf(START);
const end = doc.indexOf(END);
if (start === -1 || end === -1) {
  console.error(`${DOC} has no graph markers (${START} … ${END}); put them where the diagram goes.`);
  process.exit(1);
}
const next = `${doc.slice(0, start + START.length)}\n${mermaid()}\n${doc.slice(end)}`;
if (process.argv.includes('--check')) {
  if (next !== doc) {
    console.error(`${DOC}: the module diagram is out of date with the imports in src/. Run \`npm run docs:graph\` and commit it.`);
    process.exit(1);
  }
} else if (next !== doc) {
  writeFileSync(DOC, next);
  console.log(`${DOC}: module diagram updated.`);
}
