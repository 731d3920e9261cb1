/**
 * A pure, in-memory stand-in for the folder, the mirror and the change request, to run the
 * planner (and only the planner) over many generated situations: scan with buildLocalTree,
 * plan with planSync, carry the plan out on maps.
 */
import { buildLocalTree, type KnownPage } from '../../../src/main/core/sync/local-tree';
import { planLayout, type LayoutPage } from '../../../src/main/core/sync/layout';
import { planSync, type Plan, type PushOp } from '../../../src/main/core/sync/planner';
import { renderPageFile } from '../../../src/main/core/content';
import { parseSummary, renderSummary } from '../../../src/main/core/content';
import { isNewPageKey, type BasePage, type OpenConflict, type PushedPage, type RemotePage } from '../../../src/main/core/sync/trees';

export interface SimPage {
  id: string;
  parentId: string | null;
  title: string;
  slug: string;
  body: string;
}

/** A server tree: pages in order (siblings keep their relative order). */
export type SimTree = SimPage[];

export const pageText = (p: { title: string; body: string }) => renderPageFile({ title: p.title, body: p.body });

export function remoteOf(tree: SimTree): Map<string, RemotePage> {
  const position = new Map<string | null, number>();
  const out = new Map<string, RemotePage>();
  for (const p of tree) {
    const n = position.get(p.parentId) ?? 0;
    position.set(p.parentId, n + 1);
    out.set(p.id, { id: p.id, parentId: p.parentId, position: n, kind: 'document', title: p.title, slug: p.slug, text: pageText(p) });
  }
  return out;
}

export function layoutTree(tree: SimTree): LayoutPage[] {
  const kids = new Map<string | null, SimPage[]>();
  for (const p of tree) kids.set(p.parentId, [...(kids.get(p.parentId) ?? []), p]);
  const build = (parent: string | null): LayoutPage[] =>
    (kids.get(parent) ?? []).map((p) => {
      const pages = build(p.id);
      return { id: p.id, title: p.title, slug: p.slug, type: 'document', ...(pages.length ? { pages } : {}) };
    });
  return build(null);
}

/** The folder and mirror after a first sync of `tree`. */
export function initialState(tree: SimTree): SimState {
  const layout = planLayout(layoutTree(tree));
  const remote = remoteOf(tree);
  const base = new Map<string, BasePage>();
  const files = new Map<string, string>();
  for (const r of remote.values()) {
    const planned = layout.pages.get(r.id)!;
    base.set(r.id, { ...r, name: planned.name, path: planned.file });
    if (planned.file) files.set(planned.file, r.text!);
  }
  files.set('SUMMARY.md', renderSummary(layoutTree(tree), layout));
  return { files, base, pushed: new Map(), conflicts: [], crState: 'none', nextId: 1, crPages: new Map() };
}

export interface SimState {
  files: Map<string, string>;
  base: Map<string, BasePage>;
  pushed: Map<string, PushedPage>;
  conflicts: OpenConflict[];
  crState: 'none' | 'open';
  nextId: number;
  /** Texts the change request holds, by page id (null: deleted there). */
  crPages: Map<string, string | null>;
}

const isPageFile = (path: string) => /\.md$/i.test(path) && !/\.remote\.md$/i.test(path) && path !== 'SUMMARY.md';

export function scan(state: SimState) {
  const known: KnownPage[] = [];
  for (const b of state.base.values()) {
    const p = state.pushed.get(b.id);
    const q = p && !p.deleted ? p : null;
    const placed = q?.moved ? q : null;
    known.push({
      id: b.id,
      kind: b.kind,
      parentId: placed ? placed.parentId : b.parentId,
      name: placed?.name ?? b.name,
      path: b.path,
      text: q ? q.text : b.text,
    });
  }
  for (const p of state.pushed.values()) {
    if (state.base.has(p.id) || p.deleted) continue;
    known.push({ id: p.id, kind: 'document', parentId: p.parentId, name: p.name, path: p.path, text: p.text });
  }
  const files = [...state.files].filter(([path]) => isPageFile(path)).map(([path, text]) => ({ path, text }));
  const summary = state.files.get('SUMMARY.md');
  const held = new Map(
    state.conflicts
      .filter((c) => c.pageId !== null && (c.remotePath === null || state.files.has(c.remotePath)))
      .map((c) => [c.pageId!, c.kind === 'deleted-locally' ? c.path : null]),
  );
  return buildLocalTree(files, known, summary ? parseSummary(summary) : undefined, held);
}

export function plan(state: SimState, remote: Map<string, RemotePage>, options: { allowMassDelete?: boolean } = {}): Plan {
  const conflicts = state.conflicts.map((c) => ({ ...c, remoteFilePresent: c.remotePath === null || state.files.has(c.remotePath) }));
  return planSync({
    base: state.base,
    remote,
    local: scan(state),
    pushed: state.pushed,
    changeRequest: state.crState,
    conflicts,
    allowMassDelete: options.allowMassDelete ?? true,
  });
}

/** True when a plan changes nothing. */
export const isNoop = (p: Plan) => p.fileOps.length === 0 && p.push.length === 0 && p.conflicts.add.length === 0 && p.conflicts.resolve.length === 0;

/** Carries a plan out; throws if a file does not hold what the plan expected (nothing else writes here). */
export function apply(state: SimState, p: Plan): void {
  if (p.held) return;
  for (const op of p.fileOps) {
    if (op.op !== 'delete') continue;
    if (state.files.get(op.path) !== op.expect) throw new Error(`delete of ${op.path}: file changed`);
    state.files.delete(op.path);
  }
  const staged = new Map<string, string>();
  for (const op of p.fileOps) {
    if (op.op !== 'move') continue;
    const text = state.files.get(op.from);
    if (text === undefined) throw new Error(`move from missing ${op.from}`);
    state.files.delete(op.from);
    staged.set(op.to, text);
  }
  for (const [to, text] of staged) {
    if (state.files.has(to)) throw new Error(`move onto existing ${to}`);
    state.files.set(to, text);
  }
  for (const op of p.fileOps) {
    if (op.op === 'write') {
      const current = state.files.get(op.path) ?? null;
      if (current !== op.expect) throw new Error(`write to ${op.path}: expected ${JSON.stringify(op.expect)}, found ${JSON.stringify(current)}`);
      if (op.text === null) throw new Error('the simulator has every body');
      state.files.set(op.path, op.text);
    } else if (op.op === 'remote-copy') {
      state.files.set(op.path, op.text);
    }
  }
  state.base = new Map(p.base.map((b) => [b.id, b]));
  // As apply.ts does: SUMMARY.md follows the effective tree.
  const layout = p.summary.plan;
  const pages = new Map([...layout.pages].map(([id, page]) => [id, { ...page, file: p.summary.files.get(id) ?? page.file }]));
  state.files.set('SUMMARY.md', renderSummary(p.summary.tree, { ...layout, pages }));
  for (const c of p.conflicts.resolve) state.conflicts = state.conflicts.filter((x) => x.path !== c.path);
  for (const r of p.conflicts.relocate) state.conflicts = state.conflicts.map((x) => (x.path === r.from ? { ...x, path: r.to } : x));
  for (const c of p.conflicts.add) {
    state.conflicts = state.conflicts.filter((x) => x.path !== c.path);
    state.conflicts.push({ pageId: c.pageId, path: c.path, kind: c.kind, remotePath: c.remotePath, remoteFilePresent: true });
  }
  for (const [id, path] of p.pushedPaths) {
    const q = state.pushed.get(id);
    if (q) state.pushed.set(id, { ...q, path });
  }
  if (p.clearPushed) {
    state.pushed = new Map();
    state.crPages = new Map();
  }
  push(state, p.push);
}

/** Records pushes as a server that applies everything would. */
function push(state: SimState, ops: readonly PushOp[]): void {
  if (ops.length === 0) return;
  state.crState = 'open';
  const created = new Map<string, string>();
  const resolve = (key: string | null) =>
    key !== null && isNewPageKey(key) ? (created.get(key) ?? [...state.pushed.values()].find((p) => `new:${p.path}` === key)?.id ?? null) : key;
  const inserts = ops.filter((o) => o.op === 'insert');
  for (const op of inserts) created.set(op.key, `c${state.nextId++}`);
  for (const op of ops) {
    if (op.op === 'insert') {
      const id = created.get(op.key)!;
      state.pushed.set(id, { id, path: op.path, parentId: resolve(op.parentKey), name: op.name, text: op.text, deleted: false, moved: true });
      state.crPages.set(id, op.text);
    } else if (op.op === 'update') {
      const before = state.pushed.get(op.id);
      const moved = op.move !== null || op.rename !== null || (before?.moved === true && !before.deleted);
      state.pushed.set(op.id, { id: op.id, path: op.path, parentId: resolve(op.parentKey), name: op.name, text: op.record, deleted: false, moved });
      state.crPages.set(op.id, op.record);
    } else if (op.op === 'delete') {
      state.pushed.set(op.id, { id: op.id, path: op.path, parentId: null, name: null, text: null, deleted: true, moved: false });
      state.crPages.set(op.id, null);
    }
  }
}
