/**
 * What the sync state is computed from, read from the mirror and the folder: per chosen space,
 * when it last reached the server, its failed attempts, conflicts, what the last cycle left for
 * the writer, changes the server refused, a mass-delete stop, a missing folder and the edits that
 * wait; for the folder, whether sync is paused and the review actions queued or refused.
 *
 * Reads only. Pending edits cost a stat per file (the scan's stat cache), as `quire status` did.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type ActionRecord, type AttentionRow, type FailureKind, type Mirror, type SpaceRow, UnsafeStatePathError } from '../mirror';
import { describeAction } from '../review';
import { changeCount, changedPaths, type HeldDelete, heldDeletes, type PendingEdits, pendingEdits } from '../sync';

export interface SpaceFacts {
  spaceId: string;
  title: string;
  folder: string | null;
  reachedAt: string | null;
  failingSince: string | null;
  failedAt: string | null;
  failureKind: FailureKind | null;
  failureMessage: string | null;
  /** The space's folder is gone from the sync folder (an unmounted drive, a moved folder). */
  folderMissing: boolean;
  /**
   * The space's state names a path Quire may not use (a folder outside the sync folder, a page
   * outside the space's): the line saying so. Nothing else of the space is read then.
   */
  unsafe: string | null;
  /** Open conflicts, each with its page's title when known. */
  conflicts: { path: string; title?: string; kind: string; remotePath: string | null }[];
  /** What the last completed cycle did not push and left for the writer (a SUMMARY.md line about a page: its file, and that file's title). */
  attention: (AttentionRow & { file?: { path: string; title: string } })[];
  /** Changes the server refused: the page's title, and whether its file is gone here (a refused delete). */
  refused: { path: string | null; title: string | null; fileGone: boolean; message: string }[];
  /** The mass-delete fail-safe stopped the space, with what it counted and the pages it holds. */
  hold: { localDeletes: number; remoteDeletes: number; pages: number; deletes: HeldDelete[] } | null;
  pendingEdits: PendingEdits;
}

export interface ReviewActionFacts {
  /** Its number in the folder's queue (`quire review --dismiss <n>`). */
  seq: number;
  kind: string;
  spaceId: string;
  commentId: string | null;
  message: string | null;
  /** What it is, in the user's words ("your reply “On it.” to comment c1"). */
  words: string;
}

export interface SyncFacts {
  /** The chosen spaces. */
  spaces: SpaceFacts[];
  /** Since when automatic sync is paused in this folder (ISO), or null. */
  pausedSince: string | null;
  actionsWaiting: ReviewActionFacts[];
  actionsRefused: ReviewActionFacts[];
}

/**
 * Local edits of a space not on the server yet that the next sync would send: not those held or
 * refused (they need the writer), and none while a mass-delete stop holds the space (its cycles
 * send nothing until the writer settles it).
 */
export function editCount(s: SpaceFacts): number {
  if (s.hold) return 0;
  return changeCount(s.pendingEdits) - stuckCount(s);
}

/** Local edits of a space that wait for the writer: held, refused, or behind a mass-delete stop. */
export function stuckCount(s: SpaceFacts): number {
  if (s.hold) return changeCount(s.pendingEdits);
  const stuck = new Set([...s.attention.map((a) => a.path), ...s.refused.flatMap((r) => (r.path === null ? [] : [r.path]))]);
  const { modified, moved, added, deleted } = s.pendingEdits;
  return [...modified, ...moved.map((m) => m.to), ...added, ...deleted].filter((p) => stuck.has(p)).length;
}

/** Where the folder records that its automatic sync is paused (the time it was), by whichever host paused it. */
export const PAUSED_META = 'sync.pausedAt';

/** Pauses (or resumes) automatic sync of the folder, for every host that opens it. */
export function setPaused(mirror: Pick<Mirror, 'catalog'>, paused: boolean, at = new Date().toISOString()): void {
  mirror.catalog.setMeta(PAUSED_META, paused ? (pausedSince(mirror) ?? at) : '');
}

export function pausedSince(mirror: Pick<Mirror, 'catalog'>): string | null {
  return mirror.catalog.getMeta(PAUSED_META) || null;
}

export interface FactsOptions {
  /**
   * How the edits that wait are found: `scan` compares every file with the mirror (a stat each:
   * what `quire status` does, the truth whatever ran before); `recorded` takes what the mirror
   * already knows — the saves a running watcher recorded since the last cycle, and the changes
   * cycles planned and did not get confirmed (held, refused, in flight) — at no cost per file,
   * for a host whose watcher runs and which reads the state after every cycle and save.
   */
  edits?: 'scan' | 'recorded';
}

export async function readSyncFacts(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'outbox' | 'reviewActions' | 'reviewRecords'>,
  root: string,
  options: FactsOptions = {},
): Promise<SyncFacts> {
  const spaces: SpaceFacts[] = [];
  for (const s of mirror.catalog.selectedSpaces()) {
    try {
      spaces.push(s.folderRefused === null ? await spaceFacts(mirror, root, s, options) : unsafeFacts(s, s.folderRefused));
    } catch (err) {
      if (!(err instanceof UnsafeStatePathError)) throw err;
      spaces.push(unsafeFacts(s, err.message));
    }
  }
  const action = (a: ActionRecord): ReviewActionFacts => ({
    seq: a.seq,
    kind: a.kind,
    spaceId: a.spaceId,
    commentId: a.commentId,
    message: a.message,
    words: describeAction(mirror, a),
  });
  return {
    spaces,
    pausedSince: pausedSince(mirror),
    actionsWaiting: mirror.reviewActions.actions(['queued', 'sending']).map(action),
    actionsRefused: mirror.reviewActions.actions(['refused']).map(action),
  };
}

async function spaceFacts(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'history' | 'outbox'>,
  root: string,
  s: SpaceRow,
  options: FactsOptions,
): Promise<SpaceFacts> {
  const dir = s.folder === null ? null : join(root, s.folder);
  const folderMissing = dir !== null && mirror.folder.count(s.id) > 0 && !existsSync(dir);
  const hold = mirror.outbox.hold(s.id);
  const scanned = dir !== null && !folderMissing && options.edits !== 'recorded';
  // A cost per node, as the scan's; only the folders when the scan follows (it checks the files it reads).
  if (options.edits !== 'recorded') mirror.folder.checkPaths(s.id, { scanned });
  const edits = scanned
    ? await pendingEdits(mirror, s.id, dir)
    : !dir || folderMissing
      ? { modified: [], moved: [], added: [], deleted: [] }
      : recordedEdits(mirror, s.id);
  const changed = new Set([...changedPaths(edits)]);
  const refused = [...mirror.outbox.refused(s.id).values()].flatMap((r) => {
    const fileGone = dir !== null && r.path !== null && !existsSync(join(dir, r.path));
    // A refused change whose file is back as the server has it (restored) is over: nothing waits to be sent.
    if (r.path !== null && !fileGone && !changed.has(r.path)) return [];
    const title = mirror.folder.node(s.id, r.pageKey)?.title ?? mirror.content.page(s.id, r.pageKey)?.title ?? null;
    return [{ path: r.path, title, fileGone, message: r.message }];
  });
  return {
    ...unsafeFacts(s, null),
    folderMissing,
    conflicts: mirror.content.conflicts(s.id).map((c) => {
      const title = c.pageId === null ? undefined : (mirror.folder.node(s.id, c.pageId)?.title ?? mirror.content.page(s.id, c.pageId)?.title);
      return { path: c.path, ...(title ? { title } : {}), kind: c.kind, remotePath: c.remotePath };
    }),
    attention: mirror.outbox.attention(s.id).map((a) => withFile(mirror, s.id, a)),
    refused,
    hold: hold ? { localDeletes: hold.localDeletes, remoteDeletes: hold.remoteDeletes, pages: hold.pages, deletes: heldDeletes(mirror, s.id) } : null,
    pendingEdits: edits,
  };
}

/** A space as its catalog row says, and nothing from its folder: all there is when `unsafe` says why. */
function unsafeFacts(s: SpaceRow, unsafe: string | null): SpaceFacts {
  return {
    spaceId: s.id,
    title: s.title,
    folder: s.folder,
    reachedAt: s.reachedAt,
    failingSince: s.failingSince,
    failedAt: s.failedAt,
    failureKind: s.failureKind,
    failureMessage: s.lastError,
    folderMissing: false,
    unsafe,
    conflicts: [],
    attention: [],
    refused: [],
    hold: null,
    pendingEdits: { modified: [], moved: [], added: [], deleted: [] },
  };
}

/**
 * A SUMMARY.md line held about a page, with the page's file: the title its file carries (a title
 * typed otherwise), or the file it names (one not there; its key, `new:<path>`, says which).
 */
function withFile(mirror: Pick<Mirror, 'folder'>, spaceId: string, a: AttentionRow): SpaceFacts['attention'][number] {
  if (a.key === null) return a;
  if (a.reason === 'page-missing' && a.key.startsWith('new:')) return { ...a, file: { path: a.key.slice('new:'.length), title: a.title ?? '' } };
  const node = a.reason === 'page-title' ? mirror.folder.node(spaceId, a.key) : undefined;
  return node?.path ? { ...a, file: { path: node.path, title: node.title } } : a;
}

/** The edits of a space the mirror knows of without looking at the folder (see FactsOptions). */
function recordedEdits(mirror: Pick<Mirror, 'content' | 'folder' | 'outbox'>, spaceId: string): SpaceFacts['pendingEdits'] {
  const modified = new Set<string>();
  const added = new Set<string>();
  const deleted = new Set<string>();
  for (const e of mirror.outbox.localEdits(spaceId)) {
    if (e.kind === 'unlink') deleted.add(e.path);
    else if (e.path === 'SUMMARY.md' || mirror.folder.byPath(spaceId, e.path) !== undefined) modified.add(e.path);
    else added.add(e.path);
  }
  for (const key of mirror.folder.pending(spaceId)) {
    const path = mirror.folder.node(spaceId, key)?.path;
    if (path) modified.add(path);
  }
  const conflicts = new Set(mirror.content.conflicts(spaceId).map((c) => c.path));
  const list = (paths: Set<string>) => [...paths].filter((p) => !conflicts.has(p)).sort();
  return { modified: list(modified), moved: [], added: list(added), deleted: list(deleted) };
}
