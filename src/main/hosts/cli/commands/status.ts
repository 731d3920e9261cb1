import { join } from 'node:path';
import { dirFlag, has, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import type { CliContext } from '../context';
import { heldMessage } from '../messages';
import { safeField } from '../terminal-text';
import { deletedAssets, describeDeviation, type PathDeviation, pathDeviations, pendingEdits as detectPendingEdits } from '../../../core/sync';
import { API_URL_META } from '../../../core/api';
import { CorruptMirrorError, isCorruptionError, type Mirror } from '../../../core/mirror';

export interface SpaceStatus {
  spaceId: string;
  title: string;
  folder: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  pendingEdits: { modified: string[]; added: string[]; deleted: string[] };
  conflicts: { path: string; kind: string; remotePath: string | null }[];
  openChangeRequests: number;
  /** The change request Quire writes this space's edits into, while it is open. */
  changeRequest: { id: string; number: number | null; subject: string; pages: number } | null;
  /** Set when sync stopped before deleting most of the space (the mass-delete fail-safe): what to do. */
  held: string | null;
  /** The same hold, counted: pages it would delete on the server (localDeletes) and here (remoteDeletes), of how many. */
  hold: { localDeletes: number; remoteDeletes: number; pages: number } | null;
  /** Changes the server refused: not sent again until the file changes. */
  refused: { path: string | null; message: string }[];
  /** Assets deleted here: GitBook keeps them (its API cannot delete a file); usedBy lists the pages still showing one. */
  deletedAssets: { path: string; usedBy: string[] }[];
  /**
   * Pages not at the path GitBook's Git Sync gives them, because the file system here cannot hold
   * that name (or a file is in the way): where each is, where GitBook puts it, and why (`below`:
   * pages under it that follow it).
   */
  deviations: PathDeviation[];
}

/** `quire status --dir DIR [--json]`: per space, last sync, pending edits, conflicts, open change requests. */
export async function status(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = dirFlag(args);
  const mirror = ctx.openMirror(dir);
  try {
    return await report(mirror);
  } catch (err) {
    // Read-only: damage is reported, and left for the next sync to set aside.
    if (isCorruptionError(err)) throw new CorruptMirrorError(dir, err);
    throw err;
  } finally {
    mirror.close();
  }

  async function report(mirror: Mirror): Promise<number> {
    const spaces: SpaceStatus[] = [];
    const store = mirror.outbox;
    for (const s of mirror.catalog.selectedSpaces()) {
      const pendingEdits = s.folder ? await detectPendingEdits(mirror, s.id, join(dir, s.folder)) : { modified: [], added: [], deleted: [] };
      const cr = store.changeRequest(s.id);
      const hold = store.hold(s.id);
      spaces.push({
        spaceId: s.id,
        title: s.title,
        folder: s.folder,
        lastSyncAt: s.lastSyncAt,
        lastError: s.lastError,
        pendingEdits,
        conflicts: mirror.content.conflicts(s.id).map((c) => ({ path: c.path, kind: c.kind, remotePath: c.remotePath })),
        openChangeRequests: mirror.review.openChangeRequestCount(s.id),
        changeRequest: cr?.changeRequestId ? { id: cr.changeRequestId, number: cr.number, subject: cr.subject, pages: store.pushedPages(s.id).size } : null,
        held: hold ? heldMessage(hold, s) : null,
        hold: hold ? { localDeletes: hold.localDeletes, remoteDeletes: hold.remoteDeletes, pages: hold.pages } : null,
        refused: [...store.refused(s.id).values()].map((r) => ({ path: r.path, message: r.message })),
        deletedAssets: s.folder ? deletedAssets(mirror, s.id, join(dir, s.folder)).map((a) => ({ path: a.path, usedBy: a.usedBy })) : [],
        deviations: s.folder ? pathDeviations(mirror, s.id) : [],
      });
    }
    const apiUrl = mirror.catalog.getMeta(API_URL_META) ?? null;
    if (has(args, 'json')) {
      io.stdout(JSON.stringify({ apiUrl, spaces }, null, 2));
    } else if (spaces.length === 0) {
      io.stdout(`Nothing synced in ${dir} yet. Run: quire sync --api <url> --dir ${dir} --once`);
    } else {
      if (apiUrl) io.stdout(`API: ${safeField(apiUrl)} (remembered by this folder; its token is looked up for this address)`);
      for (const s of spaces) io.stdout(formatSpace(s));
    }
    return EXIT.ok;
  }
}

function formatSpace(s: SpaceStatus): string {
  const edits = s.pendingEdits.modified.length + s.pendingEdits.added.length + s.pendingEdits.deleted.length;
  const lines = [
    `${safeField(s.title)} (${safeField(s.spaceId)}) in ${s.folder === null ? '(not yet pulled)' : safeField(s.folder)}`,
    `  last sync: ${s.lastSyncAt ?? 'never'}${s.lastError ? ` — last error: ${safeField(s.lastError)}` : ''}`,
    `  pending local edits: ${edits}`,
    ...s.pendingEdits.modified.map((p) => `    modified ${safeField(p)}`),
    ...s.pendingEdits.added.map((p) => `    added    ${safeField(p)}`),
    ...s.pendingEdits.deleted.map((p) => `    deleted  ${safeField(p)}`),
    `  conflicts: ${s.conflicts.length}`,
    ...s.conflicts.map((c) => `    ${safeField(c.path)}: ${c.kind}${c.remotePath ? ` (remote version in ${safeField(c.remotePath)})` : ''}`),
    `  open change requests: ${s.openChangeRequests}`,
    ...(s.changeRequest
      ? [`  your edits are in change request #${s.changeRequest.number} (${s.changeRequest.pages} page(s)): ${safeField(s.changeRequest.subject)}`]
      : []),
    ...s.refused.map((r) => `  refused by the server: ${r.path === null ? '(asset)' : safeField(r.path)}: ${safeField(r.message)}`),
    ...s.deletedAssets.map((a) =>
      a.usedBy.length > 0
        ? `  ${safeField(a.path)}: deleted here but still shown by ${a.usedBy.map(safeField).join(', ')}: restore it or remove it from those pages`
        : `  ${safeField(a.path)}: deleted here; it stays on GitBook (the API cannot delete files), no page uses it`,
    ),
    ...(s.deviations.length > 0 ? [`  paths unlike GitBook's (GitBook's Git Sync writes them elsewhere): ${s.deviations.length}`] : []),
    ...s.deviations.map(
      (d) =>
        `    ${safeField(d.path)} — GitBook: ${safeField(d.gitbookPath)} (“${safeField(d.title)}”${d.below > 0 ? ` and ${d.below} page(s) below it` : ''}): ${describeDeviation(d.reason)}`,
    ),
    ...(s.held ? [`  STOPPED: ${s.held}`] : []),
  ];
  return lines.join('\n');
}
