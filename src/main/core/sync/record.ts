/**
 * Record: what a cycle did, written to the mirror in one transaction — main as last synced,
 * the folder's tree (where each file is, what it holds, what it was written with, what it
 * links to), conflicts, the revision.
 *
 * A key whose file operations failed keeps its old records, so a failed write never makes an
 * old file look like a local edit, and a write that did not happen is planned again.
 */
import type { FolderNode } from '../content';
import type { FolderNodeRow, LogActivity, Mirror } from '../mirror';
import { describeActivity } from './activity';
import type { ApplyResult, WrittenFile } from './apply';
import { describeConflict } from './conflict-words';
import { sha256 } from './hash';
import { linkTargets } from './link-targets';
import type { BaseRow, FolderRow, Plan } from './plan';
import { baseMetaOf, type RemoteTree } from './remote';
import type { ScanResult } from './scan';

export interface RecordInput {
  mirror: Mirror;
  spaceId: string;
  plan: Plan;
  applied: ApplyResult;
  scan: ScanResult;
  /** Main now, when it moved (its revision is recorded once everything else is). */
  remote: RemoteTree | null;
  at: string;
  /** What the cycle brought in, page by page, for the log (activity.ts pullActivity; null: nothing). */
  activity: LogActivity | null;
}

export function recordCycle(input: RecordInput): { clean: boolean } {
  const { mirror, spaceId, plan, applied, scan, at } = input;
  const failed = applied.failed;
  const clean = failed.size === 0 && applied.error === null;
  mirror.within(() => {
    const paths = new Map<string, string | null>();
    for (const row of plan.folder.upsert) if (!failed.has(row.key)) paths.set(row.key, applied.written.get(row.key)?.path ?? row.path);

    for (const row of plan.base.upsert) {
      if (failed.has(row.id)) continue;
      const fetched = () => (applied.fetched.has(row.id) ? mirror.content.spooledText(spaceId, row.id) : null);
      const text = row.textChanged ? (row.text ?? fetched()) : undefined;
      // A changed text not known (its write did not happen): keep the old row, to see the change again.
      if (row.textChanged && row.kind === 'document' && text === null) continue;
      mirror.content.upsertBase(
        spaceId,
        toBaseRow(row),
        text === undefined ? undefined : { value: text },
        paths.get(row.id) ?? mirror.folder.node(spaceId, row.id)?.path ?? null,
      );
    }
    for (const id of plan.base.remove) if (!failed.has(id)) mirror.content.deletePage(spaceId, id);

    for (const row of plan.folder.upsert) {
      if (failed.has(row.key)) continue;
      const written = applied.written.get(row.key);
      // What the node held before matters only for a file this cycle did not write.
      const before = written ? undefined : mirror.folder.node(spaceId, row.key);
      mirror.folder.upsert(spaceId, folderRow(row, before, applied, scan));
      const links = written?.links ?? (typeof row.holds === 'object' ? linkTargets(row.holds.text, spaceId) : null);
      if (links !== null) mirror.folder.setLinks(spaceId, row.key, links);
      else if (row.holds === 'none') mirror.folder.setLinks(spaceId, row.key, []);
    }
    for (const key of plan.folder.remove) if (!failed.has(key)) mirror.folder.remove(spaceId, key);
    const upserted = new Set(plan.folder.upsert.map((r) => r.key));
    for (const t of scan.touched) if (!upserted.has(t.key)) mirror.folder.setStat(spaceId, t.key, t);
    // Files written again for their links alone (a page they link to moved): what they hold now.
    for (const [key, written] of applied.written) {
      const before = upserted.has(key) || failed.has(key) ? undefined : mirror.folder.node(spaceId, key);
      if (!before) continue;
      mirror.folder.upsert(spaceId, stored(before, fileFields(written), written.path));
    }

    for (const c of plan.conflicts.resolve) {
      mirror.content.removeConflict(spaceId, c.path);
      mirror.log.add('info', `${c.path}: conflict resolved (${c.remotePath ?? 'the server copy'} was removed)`, spaceId, at);
    }
    for (const r of plan.conflicts.relocate) mirror.content.relocateConflict(spaceId, r.from, r.to);
    for (const c of plan.conflicts.add) {
      if (failed.has(c.pageId)) continue;
      mirror.content.addConflict({ spaceId, path: c.path, pageId: c.pageId, kind: c.kind, remotePath: c.remotePath, detectedAt: at }, c.baseText);
      mirror.log.add('conflict', `${c.path}: ${describeConflict(c.kind)}${c.remotePath ? `; the server's version is in ${c.remotePath}` : ''}`, spaceId, at);
    }
    for (const [id, path] of plan.pushedPaths) if (!failed.has(id)) mirror.outbox.setPushedPath(spaceId, id, path);

    const revision = input.remote?.revision;
    if (revision) mirror.content.recordRevision({ id: revision.id, spaceId, parents: revision.parents, createdAt: revision.createdAt }, at);
    if (clean) mirror.catalog.markSynced(spaceId, revision?.id ?? null, at);
    mirror.content.clearSpool(spaceId);
    if (input.activity) mirror.log.add('pulled', describeActivity(input.activity), spaceId, at, input.activity);
  });
  return { clean };
}

function toBaseRow(row: BaseRow): import('../mirror').BaseRow {
  return {
    id: row.id,
    parentId: row.parentId,
    position: row.position,
    type: row.kind,
    title: row.title,
    slug: row.slug,
    meta: baseMetaOf(row),
    documentId: row.documentId,
    updatedAt: row.updatedAt,
  };
}

type FileFields = Pick<FolderNodeRow, 'textHash' | 'size' | 'mtimeMs' | 'ino' | 'fileHash' | 'linkMap'>;

/** A node's record of the file this cycle wrote for it. */
function fileFields(written: WrittenFile): FileFields {
  return { textHash: written.textHash, size: written.size, mtimeMs: written.mtimeMs, ino: written.ino, fileHash: written.hash, linkMap: written.linkMap };
}

/** The stored node: the plan's row, with what its file holds and was when last seen. */
function folderRow(row: FolderRow, before: FolderNodeRow | undefined, applied: ApplyResult, scan: ScanResult): FolderNodeRow {
  const { holds } = row;
  const written = applied.written.get(row.key);
  if (written) return stored(row, fileFields(written), written.path);
  if (holds === 'none') return stored(row, { textHash: null, size: null, mtimeMs: null, ino: null, fileHash: null, linkMap: null });
  const seen = row.path !== null ? scan.seen.get(row.path) : undefined;
  const file = seen
    ? { size: seen.size, mtimeMs: seen.mtimeMs, ino: seen.ino, fileHash: seen.hash }
    : { size: before?.size ?? null, mtimeMs: before?.mtimeMs ?? null, ino: before?.ino ?? null, fileHash: before?.fileHash ?? null };
  const textHash = typeof holds === 'object' ? sha256(holds.text) : (before?.textHash ?? null);
  return stored(row, { textHash, ...file, linkMap: before?.linkMap ?? null });
}

/**
 * A node as stored, field by field: a rest pattern (`{ holds, ...node }`) and two spreads
 * allocated about 2 KB a row on the way, tens of MB of garbage in the one transaction that
 * records a large pull.
 */
function stored(node: FolderNode, file: FileFields, path = node.path): FolderNodeRow {
  return {
    key: node.key,
    kind: node.kind,
    parentKey: node.parentKey,
    position: node.position,
    title: node.title,
    name: node.name,
    path,
    folder: node.folder,
    href: node.href,
    placedLocally: node.placedLocally,
    pending: node.pending,
    pathKept: node.pathKept,
    textHash: file.textHash,
    size: file.size,
    mtimeMs: file.mtimeMs,
    ino: file.ino,
    fileHash: file.fileHash,
    linkMap: file.linkMap,
  };
}
