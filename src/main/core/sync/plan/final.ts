/** The folder's tree after this cycle, as the later stages ask about it. */
import type { EmitInput } from './stages';
import type { FolderNode } from './types';

export interface FinalTree {
  /** The node as the last cycle left it (under its former key when it was given a new one). */
  nodeOf(key: string): FolderNode | undefined;
  /** Where its file is now, before this cycle's file operations. */
  nowPath(key: string): string | null;
  path(key: string): string | null;
  parent(key: string): string | null;
  name(key: string): string | null;
  /** A parent's children in their order after this cycle. */
  siblings(parent: string | null): readonly string[];
  depth(key: string | null): number;
}

export function finalTree(input: EmitInput): FinalTree {
  const nodeOf = (key: string) => input.tree.node(key);
  const nowPath = (key: string): string | null => {
    const s = input.sides.get(key);
    if (s) return s.local?.path ?? null;
    return input.tree.node(key)?.path ?? null;
  };
  const parent = (key: string): string | null => {
    const laid = input.laid.get(key);
    if (laid) return laid.parentKey;
    const p = input.placements.get(key);
    return p ? p.parentKey : (nodeOf(key)?.parentKey ?? null);
  };
  return {
    nodeOf,
    nowPath,
    path: (key) => {
      const laid = input.laid.get(key);
      return laid ? laid.path : (nowPath(key) ?? nodeOf(key)?.path ?? null);
    },
    parent,
    name: (key) => {
      const laid = input.laid.get(key);
      return laid ? laid.name : (nodeOf(key)?.name ?? null);
    },
    siblings: (p) => input.order.get(p) ?? input.tree.children(p),
    depth: (key) => {
      let n = 0;
      for (let p = key; p !== null && n < 512; p = parent(p)) n++;
      return n;
    },
  };
}
