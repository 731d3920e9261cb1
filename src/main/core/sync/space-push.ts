/**
 * Around one space's push (space-sync.ts sends it; push-holds.ts decides what it holds back): the bytes of
 * the assets it uploads, and what the folder's tree records once the server confirms — changes
 * stop being pending, new pages take the ids the server gave them, uploaded assets their files.
 */
import { promises as fsp } from 'node:fs';
import type { Mirror } from '../mirror';
import { type AssetContent, MAX_INLINE_FILE_BYTES } from './change-request';
import { guessContentType } from './content-type';
import { followNewId } from './find-hooks';
import { pushStoreOf } from './outbox';
import type { Plan, PushOp } from './plan';
import { resolveInside } from './safe-fs';
import type { ScanResult } from './scan';

/** Bytes of the new assets the pushes upload (those over the API's inline limit are left out). */
export async function readAssets(spaceDir: string, ops: readonly PushOp[]): Promise<Map<string, AssetContent>> {
  const out = new Map<string, AssetContent>();
  for (const op of ops) {
    if (op.op !== 'files') continue;
    for (const a of op.assets) {
      if (a.size > MAX_INLINE_FILE_BYTES) continue;
      const bytes = await fsp.readFile(resolveInside(spaceDir, a.path)).catch(() => null);
      if (bytes) out.set(a.path, { base64: bytes.toString('base64'), contentType: guessContentType(a.name) });
    }
  }
  return out;
}

/** The folder's tree after a push: confirmed changes stop being pending, new pages take their ids. */
export function afterPush(
  mirror: Pick<Mirror, 'folder' | 'history' | 'outbox' | 'search' | 'transaction'>,
  spaceId: string,
  plan: Plan,
  applied: ReadonlySet<string>,
): void {
  mirror.transaction(() => {
    for (const key of applied) mirror.folder.setPending(spaceId, key, false);
    for (const key of plan.folder.removeWhenPushed) if (applied.has(key)) mirror.folder.remove(spaceId, key);
  });
  adoptCreatedIds(mirror, spaceId);
}

/** Assets uploaded by this push are, from now on, the files the change request has at their paths. */
export function recordUploadedAssets(mirror: Pick<Mirror, 'folder' | 'outbox' | 'transaction'>, spaceId: string, scan: ScanResult): void {
  const uploads = [...scan.assets.added, ...scan.assets.changed.filter((c) => c.fileId !== null)];
  mirror.transaction(() => {
    for (const a of uploads) {
      const fileId = mirror.outbox.pushedFileIdAt(spaceId, a.path);
      if (fileId !== null) mirror.folder.upsertAsset(spaceId, { path: a.path, fileId, size: a.size, mtimeMs: a.mtimeMs, ino: a.ino, hash: a.hash });
    }
  });
}

/**
 * A file that was a new page when pushed is known by the id the server gave it, found by where
 * the change request recorded its file (also after a push whose answer was lost and settled).
 */
export function adoptCreatedIds(mirror: Pick<Mirror, 'folder' | 'history' | 'outbox' | 'search' | 'transaction'>, spaceId: string): void {
  const store = pushStoreOf(mirror);
  const found = mirror.folder.newNodes(spaceId).flatMap((n) => {
    // The page the change request holds at its path that no node of the tree is yet.
    const id = n.path === null ? undefined : store.pushedPageIdsAt(spaceId, n.path).find((p) => !mirror.folder.node(spaceId, p));
    return id !== undefined ? [{ key: n.key, id }] : [];
  });
  if (found.length === 0) return;
  mirror.transaction(() => {
    for (const { key, id } of found) {
      mirror.folder.rekey(spaceId, key, id);
      followNewId(mirror, spaceId, key, id);
      mirror.folder.setPending(spaceId, id, false);
    }
  });
}
