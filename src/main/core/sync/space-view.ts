/**
 * The planner's views of one space (plan/types.ts SpaceView), answered from the mirror by key
 * as the planner asks — never the whole space at once — with main now laid over main as last
 * synced when the space's revision moved, and the folder's changes in stable form.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseStableRef, toStableLinks } from '../content';
import type { Mirror } from '../mirror';
import { sha256 } from './hash';
import { OtherFiles } from './other-files';
import type { LinkResolver } from './link-targets';
import type { BasePage, ChangeRequestState, FolderNode, LocalChanges, OpenConflict, PushedPage, RemotePage, SpaceView } from './plan';
import { basePageOf, type RemoteDiff, type RemoteTree, retitledText } from './remote';
import { resolveInside } from './safe-fs';
import { type ScanResult, toStableChanges } from './scan';
import { relSpelledOnDisk } from './spelling';
import { pushedForPlan } from './targets';

export interface ViewSources {
  mirror: Pick<Mirror, 'content' | 'folder'>;
  spaceId: string;
  spaceDir: string;
  /** Main now, when it moved since the last cycle (null: main is as last synced). */
  remote: { tree: RemoteTree; diff: RemoteDiff; bodies: ReadonlyMap<string, string> } | null;
  local: LocalChanges;
  pushed: ReadonlyMap<string, PushedPage>;
  changeRequest: ChangeRequestState;
  conflicts: readonly OpenConflict[];
  /** The stable text of a file as it is now (for a file whose content Quire did not record). */
  readStable: (key: string, path: string, raw: string) => string;
  /** Told of each page whose file is not where the mirror has it (the scan did not look there). */
  onMissing?: (key: string) => void;
}

/** What a cycle's views of a space are made from (space-sync.ts). */
export interface CycleSources {
  mirror: Pick<Mirror, 'content' | 'folder' | 'outbox' | 'reviewRecords'>;
  links: LinkResolver;
  spaceId: string;
  spaceDir: string;
  scan: ScanResult;
  remote: ViewSources['remote'];
  changeRequest: ChangeRequestState;
  onMissing?: ViewSources['onMissing'];
}

/**
 * The planner's views for one cycle, made anew for each plan: the folder's changes in stable
 * form, the open conflicts and what the change request holds, over the mirror and main now.
 */
export function cycleView(src: CycleSources): () => SpaceView {
  const { mirror, spaceId, scan } = src;
  const toStable = stableReader(src);
  const local = toStableChanges(scan.local, toStable);
  const conflicts = openConflicts(src);
  // What the change request holds, and the pages only a change request set aside has (targets.ts).
  const pushed = pushedForPlan(mirror, spaceId);
  return () =>
    mirrorView({
      mirror,
      spaceId,
      spaceDir: src.spaceDir,
      remote: src.remote,
      local,
      pushed,
      changeRequest: src.changeRequest,
      conflicts,
      readStable: toStable,
      ...(src.onMissing ? { onMissing: src.onMissing } : {}),
    });
}

/**
 * A file's text in stable form: its links mean what the references it was written with said,
 * else what they point at now (the files the scan found at new paths included).
 */
function stableReader({ mirror, links, spaceId, scan }: CycleSources): (key: string | null, path: string, raw: string) => string {
  links.overlay(spaceId, {
    files: new Map([...scan.local.added.map((a) => [a.path, `new:${a.path}`] as const), ...[...scan.local.moved].map(([key, m]) => [m.to, key] as const)]),
    newAssets: new Set(scan.local.assets.map((a) => a.path)),
  });
  // Links to an asset uploaded anew resolve again (the file they were written for is replaced).
  const replaced = new Set(scan.assets.changed.flatMap((c) => (c.fileId !== null ? [c.fileId] : [])));
  const writtenLinks = (key: string | null): Record<string, string> => {
    const map = (key !== null ? mirror.folder.node(spaceId, key)?.linkMap : null) ?? {};
    if (replaced.size === 0) return map;
    return Object.fromEntries(
      Object.entries(map).filter(([, stable]) => {
        const ref = parseStableRef(stable);
        return !(ref?.kind === 'file' && replaced.has(ref.fileId));
      }),
    );
  };
  return (key, path, raw) => toStableLinks(raw, links.targetsFor(spaceId, path), writtenLinks(key));
}

/** The open conflicts, each knowing whether the writer has deleted its server copy yet. */
function openConflicts({ mirror, spaceId, spaceDir, scan }: CycleSources): OpenConflict[] {
  return mirror.content.conflicts(spaceId).map((c) => ({
    pageId: c.pageId,
    path: c.path,
    kind: c.kind as OpenConflict['kind'],
    remotePath: c.remotePath,
    remoteFilePresent: c.remotePath === null || scan.remoteCopies.has(c.remotePath) || existsSync(resolveInside(spaceDir, c.remotePath)),
  }));
}

export function mirrorView(src: ViewSources): SpaceView {
  const { mirror, spaceId } = src;
  const memo = <T>(fn: (key: string) => T) => {
    const cache = new Map<string, T>();
    return (key: string): T => {
      if (!cache.has(key)) cache.set(key, fn(key));
      return cache.get(key) as T;
    };
  };
  const basePage = memo((id): BasePage | undefined => {
    const row = mirror.content.basePage(spaceId, id);
    return row && basePageOf(row);
  });
  const baseText = memo((id) => mirror.content.baseText(spaceId, id));
  const asRemote = (b: BasePage): RemotePage => {
    const { goneRemotely: _gone, ...page } = b;
    return page;
  };
  const tree = src.remote?.tree ?? null;
  const diff = src.remote?.diff ?? null;

  const remotePage = (id: string): RemotePage | undefined => {
    if (tree) return tree.pages.get(id);
    const b = basePage(id);
    return b && !b.goneRemotely ? asRemote(b) : undefined;
  };
  const remoteText = memo((id): string | null | undefined => {
    const r = remotePage(id);
    if (r?.kind !== 'document') return null;
    if (!tree || !diff) return baseText(id);
    const fetched = src.remote!.bodies.get(id);
    if (fetched !== undefined) return fetched;
    if (diff.bodyChanged.has(id)) return undefined;
    if (!diff.changed.has(id)) return baseText(id);
    // Only its title or metadata changed: the last synced body with the new ones.
    return retitledText(baseText(id), r, src.local.edited.get(id)?.text ?? folderText(id)) ?? undefined;
  });

  const nodeRow = memo((key) => mirror.folder.node(spaceId, key));
  const others = new OtherFiles(src.spaceDir);
  const node = (key: string): FolderNode | undefined => {
    const n = nodeRow(key);
    if (!n) return undefined;
    const { textHash: _h, size: _s, mtimeMs: _m, ino: _i, fileHash: _f, linkMap: _l, ...rest } = n;
    return rest;
  };
  /**
   * What an unchanged file holds: the text its recorded hash says (pushed or main's), else its
   * text read now. Null when it cannot be read where the mirror has it (renamed or deleted, and
   * the scan did not look there): never a guess, which would be taken for what the file holds.
   */
  const folderText = memo((key): string | null => {
    const n = nodeRow(key);
    if (!n || n.path === null || n.kind !== 'document') return null;
    const p = src.pushed.get(key);
    const candidates = [p && !p.deleted ? p.text : null, baseText(key)];
    for (const text of candidates) if (text !== null && text !== undefined && n.textHash !== null && sha256(text) === n.textHash) return text;
    // The scan saw its file go: nothing to read, and nothing it missed (else the cycle would wait for it forever).
    if (src.local.vanished.has(key)) return null;
    // A file moved with its bytes unchanged is read where it is now; its links still say where it was.
    const moved = src.local.moved.get(key);
    const at = moved && moved.text === null ? moved.to : n.path;
    try {
      return src.readStable(key, n.path, readFileSync(join(src.spaceDir, relSpelledOnDisk(src.spaceDir, at)), 'utf8'));
    } catch {
      src.onMissing?.(key);
      return null;
    }
  });

  return {
    base: {
      page: basePage,
      text: baseText,
      ids: () => mirror.content.baseIds(spaceId),
      documentCount: () => mirror.content.documentCount(spaceId),
    },
    remote: {
      page: remotePage,
      text: remoteText,
      children: (parent) =>
        tree ? (tree.children.get(parent) ?? []) : mirror.content.baseChildren(spaceId, parent).filter((id) => !basePage(id)?.goneRemotely),
      changed: () => diff?.changed ?? [],
      reordered: () => diff?.reordered ?? [],
      ids: () => (tree ? tree.pages.keys() : mirror.content.baseIds(spaceId).filter((id) => !basePage(id)?.goneRemotely)),
    },
    folder: {
      node,
      text: folderText,
      children: (parent) => mirror.folder.children(spaceId, parent),
      byPath: (path) => mirror.folder.byPath(spaceId, path),
      byFolder: (folder) => mirror.folder.byFolder(spaceId, folder),
      linking: (ids) => mirror.folder.linking(spaceId, ids).flatMap((l) => (l.spaceId === spaceId ? [l.key] : [])),
      pending: () => mirror.folder.pending(spaceId),
      keys: () => mirror.folder.keys(spaceId),
      holdsOthers: (dir) => others.holds(dir),
    },
    local: src.local,
    pushed: src.pushed,
    changeRequest: src.changeRequest,
    conflicts: src.conflicts,
  };
}
