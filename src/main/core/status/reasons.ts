/**
 * The reasons behind a sync state, in the words every host shows: what happened and what to do,
 * said once here so `quire status`, the app's banner and the tray agree. Each host adds its own
 * way to act (`action`): a button in the app, a command on the command line.
 */
import { plural } from '../../../shared/plural';
import { when } from '../../../shared/when';

export { when };
import {
  changeCount,
  describeConflict,
  describeMassDelete,
  describeMissingFolder,
  describeNotPushed,
  describePageFile,
  describeUnreadable,
  isSummaryHold,
  isUnreadableReason,
} from '../sync';
import { editCount, type SpaceFacts, stuckCount, type SyncFacts } from './facts';
import type { ReasonAction, ReasonKind, RuntimeFacts, StateReason } from './state';

/** Kinds said once for the whole folder (spaceId null) in the folder's list, whichever spaces they came from. */
export const FOLDER_WIDE: ReadonlySet<ReasonKind> = new Set(['token-rejected', 'offline', 'paused', 'actions-waiting', 'review-refused', 'no-space-chosen']);

export const reasonsOf = {
  /** Reasons of the whole folder: no space chosen, a rejected token, offline, paused, review actions. */
  folder(facts: SyncFacts, runtime: RuntimeFacts): StateReason[] {
    const out: StateReason[] = [];
    const failure = runtime.failure;
    // A failed cycle the mirror could not record (the mirror itself failing) is said from what the host saw.
    if (failure && !facts.spaces.some((s) => s.failedAt !== null && s.failedAt >= failure.since)) {
      out.push(
        failure.kind === 'offline'
          ? offlineReason(failure.since, latest(facts.spaces.map((s) => s.reachedAt)), null)
          : failure.kind === 'token-rejected'
            ? {
                kind: 'token-rejected',
                spaceId: null,
                message: `The API rejected the token: it expired or was revoked. Sign in again with a valid token; your edits are kept.`,
                action: 'sign-in',
              }
            : { kind: 'sync-failed', spaceId: null, message: `The last sync failed: ${failure.message}`, action: 'sync-now' },
      );
    }
    if (facts.spaces.length === 0) {
      out.push({
        kind: 'no-space-chosen',
        spaceId: null,
        message: 'No space is chosen for sync in this folder yet: choose the spaces to sync.',
        action: 'choose-spaces',
      });
    }
    const rejected = facts.spaces.find((s) => s.failureKind === 'token-rejected');
    if (rejected) out.push(tokenRejected(rejected, null));
    const offline = isOffline(facts, runtime);
    const offlineSpaces = facts.spaces.filter((s) => s.failureKind === 'offline');
    if (offlineSpaces.length > 0) {
      const since = earliest(offlineSpaces.map((s) => s.failingSince ?? s.failedAt));
      out.push(offlineReason(since ?? '', latest(facts.spaces.map((s) => s.reachedAt)), null));
    }
    if (facts.pausedSince !== null) out.push(pausedReason(facts, null));
    // While a cycle runs, what waits is what it is sending: `syncing` says it. Offline it waits still, whether a
    // cycle is trying again just now or not.
    if (facts.actionsWaiting.length > 0 && (!runtime.syncing || offline)) {
      const n = facts.actionsWaiting.length;
      out.push({
        kind: 'actions-waiting',
        spaceId: null,
        message: `${plural(n, 'review action')} (replies, resolutions, reactions) ${n === 1 ? 'waits' : 'wait'} to be sent to the server.`,
        action: 'sync-now',
      });
    }
    for (const a of facts.actionsRefused) {
      out.push({
        kind: 'review-refused',
        spaceId: null,
        message: `The server refused ${a.words}: ${a.message ?? 'no reason given'}. Open it in review to write it again or dismiss it.`,
        action: 'open-review',
        reviewAction: a.seq,
      });
    }
    if (runtime.syncing && runtime.syncingBy && !offline)
      out.push({ kind: 'syncing', spaceId: null, message: `Syncing now: ${runtime.syncingBy}.`, action: 'none' });
    return out;
  },

  /** Reasons of one chosen space (folder-wide ones included, with its id, for its own state). */
  space(s: SpaceFacts, facts: SyncFacts, runtime: { syncing: boolean }): StateReason[] {
    const id = s.spaceId;
    // A state Quire cannot trust for this space: that one line, and nothing read from it.
    if (s.unsafe !== null) return [{ kind: 'unsafe-state', spaceId: id, message: s.unsafe, action: 'none' }];
    const out: StateReason[] = [];
    if (s.folderMissing && s.folder !== null) {
      out.push({
        kind: 'missing-folder',
        spaceId: id,
        path: '',
        message: describeMissingFolder({ title: s.title, folder: s.folder }),
        action: 'choose-spaces',
      });
    }
    if (s.failureKind === 'token-rejected') out.push(tokenRejected(s, id));
    if (s.failureKind === 'error') {
      out.push({
        kind: 'sync-failed',
        spaceId: id,
        message: `The last sync of “${s.title}” failed (${when(s.failedAt)}): ${s.failureMessage ?? 'no reason given'}`,
        action: 'sync-now',
      });
    }
    if (s.hold) out.push(massDeleteReason(s));
    for (const c of s.conflicts) {
      out.push({
        kind: 'conflict',
        spaceId: id,
        path: c.path,
        message: `${describePageFile({ path: c.path, title: c.title ?? '', pageId: '' })}: ${describeConflict(c.kind)}.${c.remotePath ? ` The server's version is in ${c.remotePath}: keep one side (or merge them by hand), then delete ${c.remotePath}.` : ' Keep one side.'}`,
        action: 'resolve-conflict',
      });
    }
    for (const h of s.attention) {
      const held = {
        key: h.key,
        path: h.path,
        reason: h.reason as never,
        ...(h.line !== undefined ? { line: h.line } : {}),
        ...(h.title !== undefined ? { title: h.title } : {}),
        ...(h.file !== undefined ? { file: h.file } : {}),
      };
      if (isUnreadableReason(h.reason))
        out.push({ kind: 'unreadable', spaceId: id, path: h.path, message: describeUnreadable({ path: h.path, reason: h.reason }), action: 'show-file' });
      else if (h.reason === 'asset-in-use')
        out.push({ kind: 'asset-in-use', spaceId: id, path: h.path, message: describeNotPushed(held), action: 'show-folder' });
      // Reusable content and the space's variables: an edit here that only GitBook's editor can make.
      else if (h.reason === 'reusable-content' || h.reason === 'space-variables')
        out.push({ kind: 'editor-only', spaceId: id, path: h.path, message: describeNotPushed(held), action: 'show-file' });
      else if (isSummaryHold(h.reason)) out.push({ kind: 'summary-edit', spaceId: id, path: h.path, message: describeNotPushed(held), action: 'show-file' });
      // A page held before its push: the push guard's, one only another change request has, any other.
      else out.push({ kind: 'held-page', spaceId: id, path: h.path, message: describeNotPushed(held), action: 'show-file' });
    }
    for (const r of s.refused) {
      const what = r.path === null ? 'An asset' : describePageFile({ path: r.path, title: r.title ?? '', pageId: '' });
      // A delete the server refused: the file is gone here, so there is nothing to open; the page is still on the server.
      if (r.path !== null && r.fileGone) {
        out.push({
          kind: 'refused',
          spaceId: id,
          path: r.path,
          message: `${what}: you deleted it here, and the server refused to delete the page (${r.message}). The page stays on the server: restore the file (history keeps it) to go on with it, or delete the page on GitBook.`,
          action: 'restore-file',
        });
        continue;
      }
      out.push({
        kind: 'refused',
        spaceId: id,
        ...(r.path !== null ? { path: r.path } : {}),
        message: `${what}: the server refused this change (${r.message}). It is not sent again until the file changes: change it, or restore an earlier version.`,
        action: r.path !== null ? 'show-file' : 'show-folder',
      });
    }
    const offline = s.failureKind === 'offline';
    if (offline) out.push(offlineReason(s.failingSince ?? s.failedAt ?? '', s.reachedAt, id));
    if (facts.pausedSince !== null) out.push(pausedReason(facts, id));
    const edits = editCount(s);
    // Paused: the paused reason counts them. Behind a stop: the stop says what waits. Offline they wait,
    // whether a cycle is trying again just now or not.
    if (edits > 0 && (!runtime.syncing || offline) && facts.pausedSince === null) {
      const all = changeCount(s.pendingEdits);
      const stuck = all - edits;
      out.push({
        kind: 'edits-waiting',
        spaceId: id,
        message:
          stuck === 0
            ? `“${s.title}”: ${plural(all, 'local edit')} ${all === 1 ? 'is' : 'are'} not on the server yet; the next sync pushes ${all === 1 ? 'it' : 'them'}.`
            : `“${s.title}”: ${plural(all, 'local edit')} ${all === 1 ? 'is' : 'are'} not on the server yet; the next sync pushes ${edits}, and ${stuck} ${stuck === 1 ? 'needs' : 'need'} you (said above).`,
        action: 'sync-now',
      });
    }
    if (s.reachedAt === null && !s.folderMissing) {
      out.push({ kind: 'never-synced', spaceId: id, message: `“${s.title}” has not been synced into this folder yet.`, action: 'sync-now' });
    }
    return out;
  },
};

/**
 * A mass-delete stop, its pages named: files gone here are restored or let through; pages main
 * deleted are let through (their files deleted here) or kept by looking at the folder. Edits
 * behind it wait: its cycles send nothing until the writer settles it.
 */
function massDeleteReason(s: SpaceFacts): StateReason {
  const hold = s.hold!;
  const words = describeMassDelete(hold, s);
  const named = hold.deletes.length;
  const count = named > 0 ? named : hold.localDeletes + hold.remoteDeletes;
  const these = count === 1 ? 'this delete' : `these ${count} deletes`;
  const others = Math.max(0, stuckCount(s) - hold.deletes.filter((d) => d.on === 'server').length);
  const waiting = others > 0 ? ` ${plural(others, 'other local edit')} ${others === 1 ? 'waits' : 'wait'} until then.` : '';
  const local = hold.localDeletes > 0;
  // A stop recorded before stops named their pages can be let through only whole (`quire sync --allow-deletes`).
  const allow: ReasonAction = named > 0 ? 'allow-deletes' : 'show-folder';
  return {
    kind: 'mass-delete',
    spaceId: s.spaceId,
    message: local
      ? `${words} Restore the deleted files (history keeps them), or let ${these} through.${waiting}`
      : `${words} Nothing was deleted: let ${these} through (their files here go), or look at the folder.${waiting}`,
    action: local ? 'restore-deleted' : allow,
    also: local ? allow : 'show-folder',
    details: hold.deletes.map((d) => `${describePageFile(d)} — ${d.on === 'server' ? 'deleted here' : 'deleted on the server'}`),
    pageIds: hold.deletes.map((d) => d.pageId),
  };
}

function tokenRejected(s: SpaceFacts, spaceId: string | null): StateReason {
  return {
    kind: 'token-rejected',
    spaceId,
    message: `The API rejected the token (${when(s.failedAt)}): it expired or was revoked. Sign in again with a valid token; your edits are kept.`,
    action: 'sign-in',
  };
}

/** The last attempt could not reach the API (recorded by the mirror, or seen by this host when the mirror could not record it). */
function isOffline(facts: SyncFacts, runtime: RuntimeFacts): boolean {
  return facts.spaces.some((s) => s.failureKind === 'offline') || runtime.failure?.kind === 'offline';
}

function offlineReason(since: string, reached: string | null, spaceId: string | null): StateReason {
  return {
    kind: 'offline',
    spaceId,
    message: `The API could not be reached since ${when(since)} (last reached ${reached ? when(reached) : 'never'}). Your edits and review actions are kept and sent when it is back.`,
    action: 'sync-now',
  };
}

function pausedReason(facts: SyncFacts, spaceId: string | null): StateReason {
  const edits = (spaceId === null ? facts.spaces : facts.spaces.filter((s) => s.spaceId === spaceId)).reduce((n, s) => n + editCount(s), 0);
  return {
    kind: 'paused',
    spaceId,
    message: `Sync is paused (since ${when(facts.pausedSince)}); ${edits === 0 ? 'no edit waits' : `${plural(edits, 'edit')} ${edits === 1 ? 'waits' : 'wait'}`}. Resume to sync.`,
    action: 'resume',
  };
}

/** The latest of some ISO times (they sort as text), or null. */
export function latest(times: readonly (string | null)[]): string | null {
  return (
    times
      .filter((t): t is string => t !== null)
      .sort()
      .at(-1) ?? null
  );
}

/** The earliest of some ISO times, or null. */
export function earliest(times: readonly (string | null)[]): string | null {
  return times.filter((t): t is string => t !== null).sort()[0] ?? null;
}
