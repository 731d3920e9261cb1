/**
 * The folder's tree as this cycle sees it once identities are settled: a node whose key changed
 * (Scope.rekeyed: a page main deleted, kept here as a new page) answers under its new key, with
 * its children, and children's parent keys, following it.
 */
import type { SpaceView } from './types';

type FolderTree = SpaceView['folder'];

export function rekeyedTree(folder: FolderTree, rekeyed: ReadonlyMap<string, string>): FolderTree {
  if (rekeyed.size === 0) return folder;
  const from = new Map([...rekeyed].map(([old, now]) => [now, old]));
  const toNew = (key: string): string => rekeyed.get(key) ?? key;
  const toOld = (key: string): string | undefined => (rekeyed.has(key) ? undefined : (from.get(key) ?? key));
  const mapped = (key: string | undefined): string | undefined => (key === undefined ? undefined : toNew(key));
  return {
    node(key) {
      const old = toOld(key);
      const node = old === undefined ? undefined : folder.node(old);
      if (!node) return undefined;
      return { ...node, key, parentKey: node.parentKey === null ? null : toNew(node.parentKey) };
    },
    text: (key) => {
      const old = toOld(key);
      return old === undefined ? null : folder.text(old);
    },
    children(parentKey) {
      const old = parentKey === null ? null : toOld(parentKey);
      return old === undefined ? [] : folder.children(old).map(toNew);
    },
    byPath: (path) => mapped(folder.byPath(path)),
    byFolder: (dir) => mapped(folder.byFolder(dir)),
    *linking(pageIds) {
      for (const key of folder.linking(pageIds)) yield toNew(key);
    },
    *pending() {
      for (const key of folder.pending()) yield toNew(key);
    },
    *keys() {
      for (const key of folder.keys()) yield toNew(key);
    },
    ...(folder.holdsOthers ? { holdsOthers: (dir: string) => folder.holdsOthers!(dir) } : {}),
  };
}
