/**
 * A change request checked out as a read-only folder, for reading, `quire check` and
 * `quire preview`, never pushed: its content in GitBook's layout (side.ts, the sync engine's
 * layout and page files), main at its base beside it in `.quire-checkout/before/`, and a record
 * (folder.ts). The sync folder's mirror lists its checkouts, so a sync brings each to the change
 * request's latest revision; the checkout's own record must agree (it names the sync folder and
 * the change request), so a mirror alone never makes Quire write into a folder.
 *
 *   await checkOut(api, mirror, changeRequestId, '/home/me/review-3');   // first time, or again
 *   await followCheckouts(api, mirror);                                // after a sync's refresh
 */
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { ApiClient } from '../../api';
import { hasMirror, type Mirror, refuseSyncFolder, UnsafeSyncFolderError } from '../../mirror';
import { readChangeRequest } from '../current';
import { BEFORE_DIR, type ManifestPage, readManifest, writeFolder, writeManifest } from './folder';
import { type Documents, readSide, type Side, type Wanted } from './side';

export { BEFORE_DIR, CHECKOUT_DIR, type Manifest, type ManifestPage, MANIFEST_PATH, type PageChange, readManifest } from './folder';

/** The folder cannot hold this checkout: nothing was written. */
export class CheckoutRefusedError extends Error {
  override name = 'CheckoutRefusedError';
}

export interface CheckoutReport {
  folder: string;
  changeRequest: { id: string; number: number; subject: string };
  revision: string;
  /** Pages of the change request with a file, and its files in `.gitbook/assets`. */
  pages: number;
  assets: number;
  /** Files written or removed this time (both sides). */
  written: number;
  removed: number;
  /** Files changed here, kept as they are (relative to the folder). */
  kept: string[];
  /** It was not a checkout before. */
  first: boolean;
}

const isInside = (parent: string, child: string): boolean => {
  const rel = relative(parent, child);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
};

/** A path with the links on its way followed, as far as it exists (a link into the sync folder is inside it). */
function realOf(path: string): string {
  let existing = path;
  while (!existsSync(existing) && dirname(existing) !== existing) existing = dirname(existing);
  try {
    return join(realpathSync(existing), relative(existing, path));
  } catch {
    return path;
  }
}

/** Why `folder` cannot hold the checkout of `changeRequestId` for this sync folder (throws), else its absolute path. */
export function checkoutFolder(mirror: Pick<Mirror, 'syncFolder'>, folder: string, changeRequestId: string): string {
  const abs = resolve(folder);
  const sync = resolve(mirror.syncFolder);
  const [realAbs, realSync] = [realOf(abs), realOf(sync)];
  const refuse = (why: string) => {
    throw new CheckoutRefusedError(`${folder} ${why}`);
  };
  const elsewhere = join(dirname(sync), `${basename(sync)}-review`);
  if (isInside(sync, abs) || isInside(realSync, realAbs))
    refuse(`is inside the sync folder ${sync}: its files would be taken for edits to push. Choose a folder outside it, such as ${elsewhere}.`);
  if (isInside(abs, sync) || isInside(realAbs, realSync)) refuse(`holds the sync folder ${sync}: a checkout needs a folder of its own, such as ${elsewhere}.`);
  for (const start of new Set([abs, realAbs]))
    for (let up = dirname(start); up !== dirname(up); up = dirname(up))
      if (hasMirror(up)) refuse(`is inside another sync folder, ${up}: its files would be taken for edits to push there. Choose a folder outside it.`);
  try {
    refuseSyncFolder(abs);
  } catch (e) {
    if (e instanceof UnsafeSyncFolderError)
      refuse(`is the root of the file system or a home folder: a checkout needs a folder of its own, such as ${elsewhere}.`);
    throw e;
  }
  if (!existsSync(abs)) return abs;
  if (!statSync(abs).isDirectory()) refuse('is a file: give a folder for the checkout (it is created if missing).');
  if (hasMirror(abs)) refuse('is a sync folder: a checkout needs a folder of its own.');
  const manifest = readManifest(abs);
  if (manifest === null) {
    if (readdirSync(abs).length > 0)
      refuse("already holds files that are not a checkout: choose an empty or new folder (Quire writes the change request's pages there).");
    return abs;
  }
  if (resolve(manifest.syncFolder) !== sync)
    refuse(`holds a checkout of the sync folder ${manifest.syncFolder}: check out from there, or choose another folder.`);
  if (manifest.changeRequest.id !== changeRequestId)
    refuse(`holds the checkout of change request #${manifest.changeRequest.number}: choose another folder, or delete that one first.`);
  return abs;
}

/** Writes the change request's latest revision (and main at its base) into `folder`, or brings the checkout there to it. */
export async function checkOut(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'checkouts' | 'reviewRecords' | 'reviewViews' | 'revisionPages' | 'syncFolder' | 'transaction'>,
  changeRequestId: string,
  folder: string,
  signal?: AbortSignal,
): Promise<CheckoutReport> {
  const abs = checkoutFolder(mirror, folder, changeRequestId);
  const cr = await readChangeRequest(api, mirror, changeRequestId, signal);
  const spaceId = cr.space ?? mirror.reviewViews.changeRequest(changeRequestId)!.spaceId;
  if (!cr.revision) throw new Error(`The API sent change request #${cr.number} without its revision; nothing was written. Try again later.`);
  const baseRevision = cr.revisionMergedAncestor ?? cr.revisionInitial ?? null;
  const revisions = new Map<string, ReturnType<Mirror['revisionPages']['pages']>>();
  const documents: Documents = {
    get: (id) => mirror.checkouts.document(abs, id),
    stored: (revisionId, pageId) => {
      let pages = revisions.get(revisionId);
      if (!pages) {
        pages = mirror.revisionPages.pages(revisionId);
        revisions.set(revisionId, pages);
      }
      return pages.get(pageId)?.markdown ?? null;
    },
    used: new Map(),
  };
  const after = await readSide(api, spaceId, cr.revision, documents, signal);
  const before = baseRevision ? await readSide(api, spaceId, baseRevision, documents, signal) : null;

  const wanted = new Map<string, Wanted>(after.files);
  for (const [path, want] of before?.files ?? []) wanted.set(`${BEFORE_DIR}/${path}`, want);
  const previous = readManifest(abs);
  const row = { folder: abs, spaceId, changeRequestId, writtenAt: new Date().toISOString() };
  // Listed first: should writing stop half-way, the next sync finishes it.
  mirror.transaction(() => mirror.checkouts.put({ ...row, revision: mirror.checkouts.get(abs)?.revision ?? null }));
  const done = await writeFolder(api, abs, wanted, previous?.files ?? {}, signal);
  const subject = cr.subject ?? '';
  await writeManifest(abs, {
    quireCheckout: 1,
    syncFolder: resolve(mirror.syncFolder),
    spaceId,
    spaceTitle: mirror.catalog.space(spaceId)?.title ?? spaceId,
    changeRequest: { id: cr.id, number: cr.number, subject },
    revision: cr.revision,
    baseRevision,
    writtenAt: row.writtenAt,
    pages: pageChanges(after, before),
    files: done.files,
    kept: done.kept,
  });
  mirror.transaction(() => {
    mirror.checkouts.put({ ...row, revision: cr.revision! });
    mirror.checkouts.setDocuments(abs, documents.used);
  });
  return {
    folder: abs,
    changeRequest: { id: cr.id, number: cr.number, subject },
    revision: cr.revision,
    pages: [...after.pages.values()].filter((p) => p.path !== null).length,
    assets: [...after.files.values()].filter((w) => w.kind === 'asset').length,
    written: done.written.length,
    removed: done.removed.length,
    kept: done.kept,
    first: previous === null,
  };
}

/** Each page of either side, with its file on each and what the change request did to it. */
function pageChanges(after: Side, before: Side | null): ManifestPage[] {
  const out: ManifestPage[] = [];
  for (const [id, a] of after.pages) {
    if (a.path === null) continue;
    const b = before?.pages.get(id);
    const change = !b?.path ? 'added' : b.stable !== a.stable ? 'edited' : b.path !== a.path ? 'moved' : 'unchanged';
    out.push({ id, title: a.title, after: a.path, before: b?.path ?? null, change });
  }
  for (const [id, b] of before?.pages ?? []) {
    if (b.path !== null && !after.pages.get(id)?.path) out.push({ id, title: b.title, after: null, before: b.path, change: 'removed' });
  }
  return out;
}

export interface FollowReport {
  updated: CheckoutReport[];
  /** Checkouts no longer followed: the folder no longer holds them. */
  dropped: { folder: string; number: number | null }[];
  failed: { folder: string; error: unknown }[];
}

/**
 * Brings every checkout of this sync folder to its change request's revision as the mirror has
 * it now (after a refresh): only those whose revision moved are read from the server.
 */
export async function followCheckouts(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'checkouts' | 'reviewRecords' | 'reviewViews' | 'revisionPages' | 'syncFolder' | 'transaction'>,
  signal?: AbortSignal,
): Promise<FollowReport> {
  const out: FollowReport = { updated: [], dropped: [], failed: [] };
  for (const row of mirror.checkouts.list()) {
    const cr = mirror.reviewRecords.serverChangeRequest(row.changeRequestId);
    const manifest = readManifest(row.folder);
    if (manifest === null || manifest.changeRequest.id !== row.changeRequestId || resolve(manifest.syncFolder) !== resolve(mirror.syncFolder)) {
      mirror.transaction(() => mirror.checkouts.remove(row.folder));
      out.dropped.push({ folder: row.folder, number: cr?.number ?? null });
      continue;
    }
    if (!cr?.revision) continue;
    const base = cr.revisionMergedAncestor ?? cr.revisionInitial ?? null;
    if (cr.revision === row.revision && base === manifest.baseRevision) continue;
    try {
      out.updated.push(await checkOut(api, mirror, row.changeRequestId, row.folder, signal));
    } catch (error) {
      if (signal?.aborted) throw error;
      out.failed.push({ folder: row.folder, error });
    }
  }
  return out;
}
