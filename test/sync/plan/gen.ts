/** Generators for the planner's randomized tests: correlated trees and edits on both sides. */
import fc from 'fast-check';
import { posix } from 'node:path';
import { expect } from 'vitest';
import type { SimPage, SimTree, World } from './world';

export type RemoteOp =
  | { kind: 'edit' | 'append' | 'delete' | 'rename'; page: number; line: number }
  | { kind: 'add'; parent: number }
  | { kind: 'move'; page: number; parent: number };
export type LocalOp = { kind: 'edit' | 'append' | 'delete' | 'rename'; file: number; line: number } | { kind: 'add' | 'move'; file: number; dir: number };

export const arbRemoteOp: fc.Arbitrary<RemoteOp> = fc.oneof(
  fc.record({ kind: fc.constantFrom('edit' as const, 'append' as const, 'delete' as const, 'rename' as const), page: fc.nat(), line: fc.nat() }),
  fc.record({ kind: fc.constant('add' as const), parent: fc.integer({ min: -1, max: 20 }) }),
  fc.record({ kind: fc.constant('move' as const), page: fc.nat(), parent: fc.integer({ min: -1, max: 20 }) }),
);
export const arbLocalOp: fc.Arbitrary<LocalOp> = fc.oneof(
  fc.record({ kind: fc.constantFrom('edit' as const, 'append' as const, 'delete' as const, 'rename' as const), file: fc.nat(), line: fc.nat() }),
  fc.record({ kind: fc.constantFrom('add' as const, 'move' as const), file: fc.nat(), dir: fc.nat() }),
);
export const arbTree: fc.Arbitrary<SimTree> = fc
  .array(fc.integer({ min: -1, max: 12 }), { minLength: 1, maxLength: 9 })
  .map((parents) =>
    parents.map((parent, i) => ({
      id: `p${i}`,
      parentId: parent >= 0 && parent < i ? `p${parent}` : null,
      title: `Page ${i}`,
      slug: `page-${i}`,
      body: `${[0, 1, 2, 3].map((k) => `base ${i} line ${k}`).join('\n\n')}\n`,
    })),
  )
  .map(orderTree);

/** Parents before children, siblings in their given order. */
export function orderTree(tree: SimTree): SimTree {
  const out: SimTree = [];
  const visit = (parent: string | null) => {
    for (const p of tree.filter((x) => x.parentId === parent)) {
      out.push(p);
      visit(p.id);
    }
  };
  visit(null);
  return out;
}

export interface Tokens {
  next: number;
  /** Tokens that must survive, with the side that wrote them. */
  live: Map<string, 'local' | 'remote'>;
}

const tokenRe = /\b[LR]\d+\b/g;
const tokensIn = (text: string) => text.match(tokenRe) ?? [];
const excuse = (t: Tokens, text: string) => {
  for (const token of tokensIn(text)) t.live.delete(token);
};

export function applyRemote(tree: SimTree, ops: RemoteOp[], t: Tokens): SimTree {
  let pages = tree.map((p) => ({ ...p }));
  for (const op of ops) {
    if (op.kind === 'add') {
      const n = t.next++;
      const parent = op.parent >= 0 && pages.length > 0 ? pages[op.parent % pages.length]!.id : null;
      pages.push({ id: `r${n}`, parentId: parent, title: `Remote ${n}`, slug: `remote-${n}`, body: `R${n} new on the server\n` });
      t.live.set(`R${n}`, 'remote');
      continue;
    }
    if (pages.length === 0) continue;
    const page = pages[op.page % pages.length]!;
    const lines = page.body.split('\n');
    switch (op.kind) {
      case 'edit': {
        const i = op.line % lines.length;
        excuse(t, lines[i]!);
        const n = t.next++;
        lines[i] = `R${n} edited on the server`;
        t.live.set(`R${n}`, 'remote');
        page.body = lines.join('\n');
        break;
      }
      case 'append': {
        const n = t.next++;
        page.body = `${page.body.replace(/\n*$/, '')}\n\nR${n} appended on the server\n`;
        t.live.set(`R${n}`, 'remote');
        break;
      }
      case 'delete': {
        const gone = new Set([page.id]);
        for (let grew = true; grew; ) {
          grew = false;
          for (const p of pages) {
            if (p.parentId === null || !gone.has(p.parentId) || gone.has(p.id)) continue;
            gone.add(p.id);
            grew = true;
          }
        }
        for (const p of pages) if (gone.has(p.id)) excuse(t, p.body);
        pages = pages.filter((p) => !gone.has(p.id));
        break;
      }
      case 'rename': {
        // Now and then a name the folder refuses (README.md, SUMMARY.md) or one that differs from another only in case.
        const n = t.next++;
        page.slug = ['readme', 'README', 'summary', 'Page-1'][n % 7] ?? `renamed-${n}`;
        if (pages.some((p) => p.id !== page.id && p.parentId === page.parentId && p.slug === page.slug)) page.slug = `${page.slug}-m`;
        break;
      }
      case 'move': {
        const target = op.parent >= 0 ? pages[op.parent % pages.length]! : null;
        if (target && (target.id === page.id || isDescendant(pages, target.id, page.id))) break;
        page.parentId = target?.id ?? null;
        if (pages.some((p) => p.id !== page.id && p.parentId === page.parentId && p.slug === page.slug)) page.slug = `${page.slug}-m`;
        break;
      }
    }
  }
  return orderTree(pages);
}

export function isDescendant(pages: SimPage[], id: string, ancestor: string): boolean {
  for (let p = pages.find((x) => x.id === id)?.parentId ?? null; p !== null; p = pages.find((x) => x.id === p)?.parentId ?? null) {
    if (p === ancestor) return true;
  }
  return false;
}

export const pageFiles = (s: World) => [...s.files.keys()].filter((p) => /\.md$/.test(p) && !p.endsWith('.remote.md') && p !== 'SUMMARY.md').sort();
export const dirsOf = (s: World) =>
  [
    ...new Set([
      '',
      ...pageFiles(s)
        .map((p) => posix.dirname(p))
        .filter((d) => d !== '.'),
    ]),
  ].sort();

export function applyLocal(s: World, ops: LocalOp[], t: Tokens): void {
  for (const op of ops) {
    const files = pageFiles(s);
    if (op.kind === 'add') {
      const dir = dirsOf(s)[op.dir % dirsOf(s).length]!;
      const n = t.next++;
      s.files.set(dir === '' ? `new-${n}.md` : `${dir}/new-${n}.md`, `# New ${n}\n\nL${n} written here\n`);
      t.live.set(`L${n}`, 'local');
      continue;
    }
    if (files.length === 0) continue;
    const path = files[op.file % files.length]!;
    const text = s.files.get(path)!;
    switch (op.kind) {
      case 'edit':
      case 'append': {
        const lines = text.split('\n');
        const n = t.next++;
        if (op.kind === 'edit' && lines.length > 3) {
          const i = 2 + (op.line % (lines.length - 2));
          excuse(t, lines[i]!);
          lines[i] = `L${n} edited here`;
        } else {
          lines.push(`L${n} appended here`, '');
        }
        s.files.set(path, lines.join('\n'));
        t.live.set(`L${n}`, 'local');
        break;
      }
      case 'delete':
        excuse(t, text);
        s.files.delete(path);
        break;
      case 'rename':
      case 'move': {
        if (posix.basename(path) === 'README.md') break;
        const dirs = dirsOf(s);
        const dir = op.kind === 'move' ? dirs[op.dir % dirs.length]! : posix.dirname(path);
        const name = op.kind === 'rename' ? `renamed-${t.next++}.md` : posix.basename(path);
        const to = dir === '' || dir === '.' ? name : `${dir}/${name}`;
        if (s.files.has(to)) break;
        s.files.delete(path);
        s.files.set(to, text);
        break;
      }
    }
  }
}

/** Every live token is somewhere: a file in the folder (pages or conflict copies) or the change request. */
export function expectNoLostEdit(s: World, t: Tokens): void {
  const everywhere = [...s.files.values(), ...[...s.crPages.values()].filter((x): x is string => x !== null)].join('\n');
  const lost = [...t.live.keys()].filter((token) => !new RegExp(`\\b${token}\\b`).test(everywhere));
  expect(lost).toEqual([]);
}
