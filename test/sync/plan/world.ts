/**
 * A pure, in-memory stand-in for the server, the folder and the mirror, to run the planner
 * (and only the planner) over many generated situations: scan by comparing files with the
 * folder's tree, plan, carry the plan out on maps, and push into a change request that
 * applies everything.
 */
import { createHash } from 'node:crypto';
import { renderPageFile, samePageText } from '../../../src/main/core/content';
import { pairMoves } from '../../../src/main/core/sync/plan/pair-moves';
import {
  DELETED_REMOTELY_NOTE,
  isNewPageKey,
  planSync,
  type BasePage,
  type FolderNode,
  type LocalChanges,
  type OpenConflict,
  type Plan,
  type PushedPage,
  type RemotePage,
  type SpaceView,
} from '../../../src/main/core/sync/plan';

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
const hash = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 16);

export function remoteOf(tree: SimTree): Map<string, RemotePage & { text: string }> {
  const position = new Map<string | null, number>();
  const out = new Map<string, RemotePage & { text: string }>();
  for (const p of tree) {
    const n = position.get(p.parentId) ?? 0;
    position.set(p.parentId, n + 1);
    const text = pageText(p);
    out.set(p.id, {
      id: p.id,
      parentId: p.parentId,
      position: n,
      kind: 'document',
      title: p.title,
      slug: p.slug,
      meta: {},
      href: null,
      documentId: hash(text),
      updatedAt: null,
      text,
    });
  }
  return out;
}

type Node = FolderNode & { text: string | null };
type Base = BasePage & { text: string | null };

const isPageFile = (path: string) => /\.md$/i.test(path) && !/\.remote\.md$/i.test(path) && path !== 'SUMMARY.md';

export class World {
  files = new Map<string, string>();
  base = new Map<string, Base>();
  nodes = new Map<string, Node>();
  pushed = new Map<string, PushedPage>();
  conflicts: OpenConflict[] = [];
  crState: 'none' | 'open' = 'none';
  /** Texts the change request holds, by page id (null: deleted there). */
  crPages = new Map<string, string | null>();
  nextId = 1;

  /** The folder and mirror after a first sync of `tree` (planned by the planner itself). */
  static initial(tree: SimTree): World {
    const w = new World();
    const plan = w.plan(tree, { full: false });
    w.apply(plan, tree);
    return w;
  }

  clone(): World {
    const w = new World();
    w.files = new Map(this.files);
    w.base = new Map([...this.base].map(([k, v]) => [k, { ...v }]));
    w.nodes = new Map([...this.nodes].map(([k, v]) => [k, { ...v }]));
    w.pushed = new Map([...this.pushed].map(([k, v]) => [k, { ...v }]));
    w.conflicts = this.conflicts.map((c) => ({ ...c }));
    w.crState = this.crState;
    w.crPages = new Map(this.crPages);
    w.nextId = this.nextId;
    return w;
  }

  /** What changed in the folder since the last plan was applied. */
  scan(): LocalChanges {
    const byPath = new Map<string, string>();
    for (const n of this.nodes.values()) if (n.path !== null && n.kind === 'document') byPath.set(n.path, n.key);
    const edited = new Map<string, { path: string; text: string }>();
    const vanished: { key: string; path: string; text: string | null }[] = [];
    for (const n of this.nodes.values()) {
      if (n.path === null || n.kind !== 'document') continue;
      const text = this.files.get(n.path);
      if (text === undefined) vanished.push({ key: n.key, path: n.path, text: n.text });
      else if (text !== n.text) edited.set(n.key, { path: n.path, text });
    }
    const appeared = [...this.files].filter(([path]) => isPageFile(path) && !byPath.has(path)).map(([path, text]) => ({ path, text }));
    const pairs = pairMoves(vanished, appeared, samePageText);
    const moved = new Map<string, { from: string; to: string; text: string | null }>();
    const taken = new Set<string>();
    for (const [key, file] of pairs) {
      const from = this.nodes.get(key)!;
      moved.set(key, { from: from.path!, to: file.path, text: file.text === from.text ? null : file.text });
      taken.add(file.path);
    }
    return {
      edited,
      vanished: new Map(vanished.filter((v) => !pairs.has(v.key)).map((v) => [v.key, v.path])),
      moved,
      added: appeared.filter((a) => !taken.has(a.path)),
      unreadable: [],
      summary: null,
      assets: [],
    };
  }

  view(tree: SimTree, options: { full: boolean; withhold?: ReadonlySet<string> }): SpaceView {
    const remote = remoteOf(tree);
    const children = (list: Iterable<{ key: string; parentKey: string | null; position: number }>, parent: string | null) =>
      [...list]
        .filter((n) => n.parentKey === parent)
        .sort((a, b) => a.position - b.position || (a.key < b.key ? -1 : 1))
        .map((n) => n.key);
    const remoteChildren = (parent: string | null) =>
      children(
        [...remote.values()].map((r) => ({ key: r.id, parentKey: r.parentId, position: r.position })),
        parent,
      );
    const baseChildren = (parent: string | null) =>
      children(
        [...this.base.values()].filter((b) => !b.goneRemotely).map((b) => ({ key: b.id, parentKey: b.parentId, position: b.position })),
        parent,
      );
    const changed = new Set<string>();
    for (const r of remote.values()) {
      const b = this.base.get(r.id);
      if (!b || b.goneRemotely || b.parentId !== r.parentId || b.slug !== r.slug || b.title !== r.title || b.documentId !== r.documentId) changed.add(r.id);
    }
    for (const b of this.base.values()) if (!remote.has(b.id)) changed.add(b.id);
    const parents = new Set<string | null>([null, ...remote.keys(), ...this.base.keys()]);
    const reordered = [...parents].filter((p) => JSON.stringify(remoteChildren(p)) !== JSON.stringify(baseChildren(p)));
    const local = this.scan();
    return {
      base: {
        page: (id) => {
          const b = this.base.get(id);
          if (!b) return undefined;
          const { text: _t, ...page } = b;
          return page;
        },
        text: (id) => this.base.get(id)?.text ?? null,
        ids: () => this.base.keys(),
        documentCount: () => [...this.base.values()].filter((b) => b.kind === 'document').length,
      },
      remote: {
        page: (id) => {
          const r = remote.get(id);
          if (!r) return undefined;
          const { text: _t, ...page } = r;
          return page;
        },
        text: (id) => {
          const r = remote.get(id);
          if (!r) return null;
          if (options.withhold?.has(id) && changed.has(id)) return undefined;
          return r.text;
        },
        children: remoteChildren,
        changed: () => changed,
        reordered: () => reordered,
        ids: () => remote.keys(),
      },
      folder: {
        node: (key) => {
          const n = this.nodes.get(key);
          if (!n) return undefined;
          const { text: _t, ...node } = n;
          return node;
        },
        text: (key) => this.nodes.get(key)?.text ?? null,
        children: (parent) => children(this.nodes.values(), parent),
        byPath: (path) => [...this.nodes.values()].find((n) => n.path === path)?.key,
        byFolder: (folder) => [...this.nodes.values()].find((n) => n.folder === folder)?.key,
        linking: () => [],
        pending: () => [...this.nodes.values()].filter((n) => n.pending).map((n) => n.key),
        keys: () => this.nodes.keys(),
      },
      local,
      pushed: this.pushed,
      changeRequest: this.crState,
      conflicts: this.conflicts.map((c) => ({ ...c, remoteFilePresent: c.remotePath === null || this.files.has(c.remotePath) })),
    };
  }

  /** Plans a cycle against `tree` as the server's main; fetches withheld bodies when asked, as the engine does. */
  plan(tree: SimTree, options: { full: boolean; withhold?: ReadonlySet<string>; allowMassDelete?: boolean; betweenSteps?: () => void }): Plan {
    const planOptions = {
      full: options.full,
      allowMassDelete: options.allowMassDelete ?? true,
      ...(options.betweenSteps ? { betweenSteps: options.betweenSteps } : {}),
    };
    const first = planSync(this.view(tree, options), planOptions);
    if (first.needBodies.length === 0) return first;
    const withhold = new Set(options.withhold ?? []);
    for (const id of first.needBodies) withhold.delete(id);
    const second = planSync(this.view(tree, { ...options, withhold }), planOptions);
    if (second.needBodies.length > 0) throw new Error(`a second plan asked for more bodies: ${second.needBodies.join(', ')}`);
    return second;
  }

  /** Carries a plan out; throws if a file does not hold what the plan expected (nothing else writes here). */
  apply(p: Plan, tree: SimTree): void {
    if (p.massDelete) return;
    const remote = remoteOf(tree);
    const scanned = new Map(this.files);
    const expect = (path: string) => {
      if (this.files.get(path) !== scanned.get(path)) throw new Error(`${path}: changed since the scan`);
    };
    for (const op of p.fileOps) {
      if (op.op !== 'delete') continue;
      if (!this.files.has(op.path)) throw new Error(`delete of missing ${op.path}`);
      expect(op.path);
      this.files.delete(op.path);
    }
    const staged = new Map<string, string>();
    for (const op of p.fileOps) {
      if (op.op !== 'move') continue;
      const text = this.files.get(op.from);
      if (text === undefined) throw new Error(`move from missing ${op.from}`);
      this.files.delete(op.from);
      staged.set(op.to, text);
    }
    for (const [to, text] of staged) {
      if (this.files.has(to)) throw new Error(`move onto existing ${to}`);
      this.files.set(to, text);
    }
    for (const op of p.fileOps) {
      if (op.op === 'write') {
        if (op.fresh && this.files.has(op.path)) throw new Error(`write of a new file onto existing ${op.path}`);
        if (!op.fresh && !this.files.has(op.path)) throw new Error(`write onto missing ${op.path}`);
        const text = op.text ?? remote.get(op.key)?.text;
        if (text === undefined) throw new Error(`no server text for ${op.key}`);
        this.files.set(op.path, text);
      } else if (op.op === 'relink') {
        if (!this.files.has(op.path)) throw new Error(`relink of missing ${op.path}`);
        this.files.set(op.path, op.text);
      } else if (op.op === 'remote-copy') {
        this.files.set(op.path, op.text ?? DELETED_REMOTELY_NOTE);
      }
    }
    for (const row of p.base.upsert) {
      const { textChanged, text, ...page } = row;
      const old = this.base.get(row.id);
      const value = textChanged ? (text ?? remote.get(row.id)?.text ?? null) : (old?.text ?? null);
      this.base.set(row.id, { ...page, text: value });
    }
    for (const id of p.base.remove) this.base.delete(id);
    for (const key of p.folder.remove) this.nodes.delete(key);
    for (const row of p.folder.upsert) {
      const { holds, ...node } = row;
      const old = this.nodes.get(row.key);
      let text: string | null;
      if (holds === 'unchanged') text = old?.text ?? null;
      else if (holds === 'none') text = null;
      else if (holds === 'remote') text = remote.get(row.key)?.text ?? null;
      else text = holds.text;
      this.nodes.set(row.key, { ...node, text });
    }
    for (const c of p.conflicts.resolve) this.conflicts = this.conflicts.filter((x) => x.path !== c.path);
    for (const r of p.conflicts.relocate) this.conflicts = this.conflicts.map((x) => (x.path === r.from ? { ...x, path: r.to } : x));
    for (const c of p.conflicts.add) {
      this.conflicts = this.conflicts.filter((x) => x.path !== c.path);
      this.conflicts.push({ pageId: c.pageId, path: c.path, kind: c.kind, remotePath: c.remotePath, remoteFilePresent: true });
    }
    for (const [id, path] of p.pushedPaths) {
      const q = this.pushed.get(id);
      if (q) this.pushed.set(id, { ...q, path });
    }
    if (p.clearPushed) {
      this.pushed = new Map();
      this.crPages = new Map();
      this.crState = 'none';
    }
    this.push(p);
  }

  /** Records pushes as a server that applies everything would. */
  private push(p: Plan): void {
    const ops = p.push;
    if (ops.length === 0) return;
    this.crState = 'open';
    const created = new Map<string, string>();
    const resolve = (key: string | null) => (key !== null && isNewPageKey(key) ? (created.get(key) ?? null) : key);
    for (const op of ops) if (op.op === 'insert') created.set(op.key, `c${this.nextId++}`);
    for (const op of ops) {
      if (op.op === 'insert') {
        const id = created.get(op.key)!;
        this.pushed.set(id, {
          id,
          path: op.path,
          parentId: resolve(op.parentKey),
          name: op.name,
          ordered: true,
          after: resolve(op.after),
          text: op.text,
          deleted: false,
          moved: true,
        });
        this.crPages.set(id, op.text);
        // The folder's node takes the page's id.
        const node = this.nodes.get(op.key);
        if (node) {
          this.nodes.delete(op.key);
          this.nodes.set(id, { ...node, key: id, pending: false });
          for (const n of this.nodes.values()) if (n.parentKey === op.key) n.parentKey = id;
        }
      } else if (op.op === 'update') {
        const before = this.pushed.get(op.id);
        const moved = op.move !== null || op.rename !== null || (before?.moved === true && !before.deleted);
        const text = op.text ?? op.record ?? (before && !before.deleted ? before.text : null);
        const ordered = op.move !== null || (before?.ordered === true && !before.deleted);
        this.pushed.set(op.id, {
          id: op.id,
          path: op.path,
          parentId: resolve(op.parentKey),
          name: op.name,
          ordered,
          after: resolve(op.after),
          text,
          deleted: false,
          moved,
        });
        if (op.text !== null) this.crPages.set(op.id, op.text);
        const node = this.nodes.get(op.id);
        if (node) node.pending = false;
      } else if (op.op === 'delete') {
        const before = this.pushed.get(op.id);
        this.pushed.set(op.id, {
          id: op.id,
          path: op.path,
          parentId: before?.parentId ?? null,
          name: null,
          ordered: before?.ordered ?? false,
          after: before?.after ?? null,
          text: null,
          deleted: true,
          moved: false,
        });
        this.crPages.set(op.id, null);
        if (p.folder.removeWhenPushed.includes(op.id)) this.nodes.delete(op.id);
      }
    }
  }
}

/** True when a plan changes nothing. */
export const isNoop = (p: Plan) =>
  p.fileOps.length === 0 && p.push.length === 0 && p.conflicts.add.length === 0 && p.conflicts.resolve.length === 0 && !p.treeChanged;
