/**
 * `.gitbook/assets/`, pulled: brings the folder's copies of main's files in line (a new or
 * changed file is downloaded, one main no longer has is removed), and records what each file
 * is and was when written, so the scan tells the writer's own changes apart. Assets only this
 * folder has keep their names; what happens to them is the push's business.
 *
 * A path Quire will not use — a symbolic link (never followed, never written through or
 * removed), a folder, a device — is left alone with its record as it was; the scan reports it,
 * and the rest of the space syncs.
 */
// fs.promises, not node:fs/promises: it loads with the first asset looked at, not with every command.
import { lstatSync, promises } from 'node:fs';
import { posix } from 'node:path';
import type { ApiClient } from '../api';
import type { FileRow, Mirror } from '../mirror';
import { sha256 } from './hash';
import { ASSETS_FOLDER, type NameRules, planAssetPaths } from '../naming';
import type { Held } from './plan';
import { forEachBounded } from './bounded';
import type { RemoteFile } from './remote';
import { removeFileInside, resolveInside, writeFileAtomic } from './safe-fs';

export interface PulledAssets {
  written: string[];
  deleted: string[];
}

export async function pullAssets(
  api: ApiClient,
  mirror: Pick<Mirror, 'content' | 'folder' | 'outbox' | 'transaction'>,
  spaceId: string,
  spaceDir: string,
  files: readonly RemoteFile[],
  rules?: NameRules,
): Promise<PulledAssets> {
  const out: PulledAssets = { written: [], deleted: [] };
  const known = new Map(mirror.content.files(spaceId).map((f) => [f.id, f]));
  if (files.length === 0 && known.size === 0) return out; // main has no files, and had none
  const knownPaths = new Set([...known.values()].map((f) => f.path));
  // Files on disk that main never had keep their names: list them as earlier holders.
  const usable = assetsFolderOf(spaceDir);
  const onDisk = usable ? await promises.readdir(resolveInside(spaceDir, ASSETS_FOLDER)).catch(() => [] as string[]) : [];
  const localOnly = onDisk.map((n) => `${ASSETS_FOLDER}/${n}`).filter((p) => !knownPaths.has(p));
  const claimants = [...localOnly.map((p) => ({ id: `local:${p}`, name: posix.basename(p) })), ...files];
  const previous = new Map<string, string>([...known.values()].map((f) => [f.id, f.path]));
  for (const p of localOnly) previous.set(`local:${p}`, p);
  // A file uploaded in place of another (a changed asset) takes its path over once main has it.
  for (const pushed of mirror.outbox.pushedFiles(spaceId)) {
    if (pushed.fileId === null || !files.some((f) => f.id === pushed.fileId)) continue;
    for (const [id, path] of previous) if (path === pushed.path) previous.delete(id);
    previous.set(pushed.fileId, pushed.path);
  }
  const paths = planAssetPaths(claimants, { previous, ...(rules ? { rules } : {}) });
  const rows: FileRow[] = [];
  const seen: { path: string; fileId: string; size: number; mtimeMs: number; ino: string; hash: string }[] = [];
  const claimed = new Set(paths.values());
  const recorded = new Set(mirror.folder.assets(spaceId).map((a) => a.path));
  await forEachBounded(files, 8, async (f) => {
    const path = paths.get(f.id)!;
    const old = known.get(f.id);
    const onDisk = usable ? assetOnDisk(spaceDir, path) : 'left-alone';
    if (onDisk === 'left-alone') {
      if (old) rows.push({ ...old, name: f.name, contentType: f.contentType, size: f.size });
      return;
    }
    const abs = onDisk.abs;
    const present = onDisk.present ? await promises.stat(abs).catch(() => null) : null;
    // Deleted here: it stays deleted (the server keeps it; `quire status` says so).
    if (old && old.path === path && present === null && recorded.has(path)) {
      rows.push({ spaceId, id: f.id, name: f.name, contentType: f.contentType, size: f.size, path, remoteHash: old.remoteHash });
      return;
    }
    let remoteHash = old?.remoteHash ?? null;
    if (!old || old.size !== f.size || old.name !== f.name || present === null) {
      const bytes = await api.download(f.downloadURL);
      remoteHash = sha256(bytes);
      await writeFileAtomic(spaceDir, path, bytes);
      out.written.push(path);
      if (old && old.path !== path && !claimed.has(old.path)) await removeFileInside(spaceDir, old.path);
      const st = await promises.stat(abs);
      seen.push({ path, fileId: f.id, size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), hash: remoteHash });
    }
    rows.push({ spaceId, id: f.id, name: f.name, contentType: f.contentType, size: f.size, path, remoteHash });
  });
  const gone = [...known.values()].filter((old) => !files.some((f) => f.id === old.id) && usable && assetOnDisk(spaceDir, old.path) !== 'left-alone');
  for (const old of gone) {
    await removeFileInside(spaceDir, old.path);
    out.deleted.push(old.path);
  }
  mirror.transaction(() => {
    for (const old of gone) {
      mirror.content.deleteFile(spaceId, old.id);
      mirror.folder.removeAsset(spaceId, old.path);
    }
    for (const row of rows) mirror.content.upsertFile(row);
    for (const s of seen) mirror.folder.upsertAsset(spaceId, s);
  });
  return out;
}

/** Assets deleted here that main still has: each kept on the server (the API cannot delete a file), and who still uses it. */
export function deletedAssets(mirror: Pick<Mirror, 'folder'>, spaceId: string, spaceDir: string): { path: string; fileId: string; usedBy: string[] }[] {
  const out: { path: string; fileId: string; usedBy: string[] }[] = [];
  const usable = assetsFolderOf(spaceDir);
  for (const a of mirror.folder.assets(spaceId)) {
    const onDisk = usable ? assetOnDisk(spaceDir, a.path) : 'left-alone';
    if (a.fileId === null || onDisk === 'left-alone' || onDisk.present) continue;
    out.push({ path: a.path, fileId: a.fileId, usedBy: usersOf(mirror, spaceId, a.fileId) });
  }
  return out;
}

/** Deleted assets pages still show: a problem to report (an image would silently break). */
export function deletedAssetsInUse(mirror: Pick<Mirror, 'folder'>, spaceId: string, gone: readonly string[]): Held[] {
  if (gone.length === 0) return [];
  const byPath = new Map(mirror.folder.assets(spaceId).map((a) => [a.path, a.fileId]));
  return gone.flatMap((path) => {
    const fileId = byPath.get(path) ?? null;
    const users = fileId === null ? [] : usersOf(mirror, spaceId, fileId);
    return users.length > 0 ? [{ key: null, path, title: users.join(', '), reason: 'asset-in-use' as const }] : [];
  });
}

function usersOf(mirror: Pick<Mirror, 'folder'>, spaceId: string, fileId: string): string[] {
  return mirror.folder.linking(spaceId, [fileId]).flatMap((l) => {
    const path = mirror.folder.node(l.spaceId, l.key)?.path;
    return path ? [l.spaceId === spaceId ? path : `${path} (another space)`] : [];
  });
}

/**
 * What is at an asset's path: a file Quire may write, or nothing yet (its absolute path), or something
 * it leaves alone (a symbolic link, a folder or a device there, or a path a link leads out of).
 */
function assetOnDisk(spaceDir: string, path: string): { abs: string; present: boolean } | 'left-alone' {
  try {
    const abs = resolveInside(spaceDir, path);
    const st = lstatSync(abs, { throwIfNoEntry: false });
    if (!st) return { abs, present: false };
    return st.isFile() ? { abs, present: true } : 'left-alone';
  } catch {
    return 'left-alone';
  }
}

/** The assets' folder is one Quire may list: absent, or a real folder inside the space folder (not a symbolic link). */
function assetsFolderOf(spaceDir: string): boolean {
  try {
    const st = lstatSync(resolveInside(spaceDir, ASSETS_FOLDER), { throwIfNoEntry: false });
    return st === undefined || st.isDirectory();
  } catch {
    return false;
  }
}
