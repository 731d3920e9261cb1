/**
 * The reasons behind a sync state, in the words every host shows: what happened and what to do,
 * said once here so `quire status`, the app's banner and the tray agree. Each host adds its own
 * way to act (`action`): a button in the app, a command on the command line.
 */
import { plural } from '../../../shared/plural';
import { when } from '../../../shared/when';

export { when };
import { describeConflict, describeMassDelete, describeMissingFolder, describeNotPushed, describeUnreadable, isSummaryHold, isUnreadableReason } from '../sync';
import { editCount, type SpaceFacts, type SyncFacts } from './facts';
import type { ReasonKind, RuntimeFacts, StateReason } from './state';

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
    if (s.hold) {
      const words = describeMassDelete(s.hold, s);
      const local = s.hold.localDeletes > 0;
      out.push({
        kind: 'mass-delete',
        spaceId: id,
        message: local
          ? `${words} Restore the deleted files (history keeps them), or let the deletes through on purpose from the command line (--allow-deletes).`
          : `${words} Nothing was deleted: look at the folder, and let the deletes through on purpose from the command line (--allow-deletes).`,
        action: local ? 'restore-deleted' : 'show-folder',
      });
    }
    for (const c of s.conflicts) {
      out.push({
        kind: 'conflict',
        spaceId: id,
        path: c.path,
        message: `${c.path}: ${describeConflict(c.kind)}.${c.remotePath ? ` The server's version is in ${c.remotePath}: keep one side (or merge them by hand), then delete ${c.remotePath}.` : ' Keep one side.'}`,
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
      const what = r.path ?? 'An asset';
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
    // Paused: the paused reason counts them. Offline they wait, whether a cycle is trying again just now or not.
    if (edits > 0 && (!runtime.syncing || offline) && facts.pausedSince === null) {
      out.push({
        kind: 'edits-waiting',
        spaceId: id,
        message: `“${s.title}”: ${plural(edits, 'local edit')} ${edits === 1 ? 'is' : 'are'} not on the server yet; the next sync pushes ${edits === 1 ? 'it' : 'them'}.`,
        action: 'sync-now',
      });
    }
    if (s.reachedAt === null && !s.folderMissing) {
      out.push({ kind: 'never-synced', spaceId: id, message: `“${s.title}” has not been synced into this folder yet.`, action: 'sync-now' });
    }
    return out;
  },
};

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
