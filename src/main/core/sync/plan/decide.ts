/**
 * The decision table: what happens to one page's content, from its four views. One table,
 * one place: the bodies to fetch are the pages whose decision is `needs-remote-body`.
 *
 * - changed on the server only: the file takes the server's text;
 * - changed here only: pushed into the change request (emit.ts compares with what it holds);
 * - changed on both sides: merged (title, frontmatter keys and body apart: merge.ts); a clash
 *   keeps the file untouched, puts the server's text beside it and holds the page until the
 *   writer deletes that copy (the change request keeps what the writer pushed for it);
 * - deleted on one side and edited on the other: a conflict, never a silent loss;
 * - deleted here only when a file that stood for the page went away (`fileGone`): a group or a
 *   link has no file, and a page whose file nobody removed is pulled again, never deleted;
 * - once a change request is merged, what it held is the merge base.
 */
import { samePageText } from '../../content';
import { mergeText, type MergeLimits } from './merge';
import type { Scope } from './stages';
import type { BasePage, ConflictKind, OpenConflict, PageKind, PushedPage, RemotePage } from './types';

/** Everything known about one page, from each view. */
export interface PageSides {
  id: string;
  /** What the page is (main's kind now, else as last synced, else as the folder knows it). */
  kind: PageKind;
  base: BasePage | undefined;
  baseText: string | null;
  remote: RemotePage | undefined;
  /** The server's text now; undefined while not fetched (it changed). */
  remoteText: string | null | undefined;
  /** The page's file here now, in stable form; undefined when there is none. */
  local: { path: string; text: string } | undefined;
  /** The file is there but cannot be read faithfully. */
  unreadable: boolean;
  /**
   * A file that stood for the page went away: the scan saw it vanish, or an earlier cycle did
   * and its delete is not pushed yet. The only thing that deletes a page main has.
   */
  fileGone: boolean;
  /** What the open change request holds for it. */
  pushed: PushedPage | undefined;
  /** What the change request merged since the last cycle held for it (the merge base). */
  pushedMerged: PushedPage | undefined;
  /** An open conflict holds it (its server copy is still there). */
  conflict: OpenConflict | undefined;
  /** A conflict on it was resolved this cycle (the writer deleted the server copy). */
  resolved: OpenConflict | undefined;
  /** A new file here and a new page on the server were found to be the same page. */
  adopted: boolean;
}

export type Decision =
  /** The file holds `text` after this cycle: as it was (`none`), the server's (`pulled`) or merged. */
  | { kind: 'text'; text: string; change: 'none' | 'pulled' | 'merged' }
  /** The file takes the server's changed text, which no decision needs to see: fetched while writing. */
  | { kind: 'pull-unseen' }
  /** A conflict holds the page: its file (if any) is left alone and nothing is pushed for its text. */
  | { kind: 'held'; text: string | null; conflict: { kind: ConflictKind; baseText: string | null } | null; refresh: boolean; keepBase: boolean }
  /** Deleted on the server, unchanged here: the file goes. */
  | { kind: 'delete-file'; pushDelete: boolean }
  /** Deleted here, unchanged on the server (or only in the change request): pushed as a delete. */
  | { kind: 'push-delete' }
  /** On neither side any more. */
  | { kind: 'gone'; pushDelete: boolean }
  /** Cannot be decided without the server's changed text. */
  | { kind: 'needs-remote-body' }
  /** A page Quire does not represent as a file (a group, a link): nothing to write, nothing to push for a text, never a delete. */
  | { kind: 'no-file' }
  /** The file is there but cannot be read faithfully: left alone, nothing pushed. */
  | { kind: 'unreadable' };

/** True when the page has a file (or keeps one) after this cycle. */
export function keepsFile(d: Decision, hasLocal: boolean): boolean {
  switch (d.kind) {
    case 'text':
    case 'pull-unseen':
      return true;
    case 'held':
      return d.text !== null;
    case 'unreadable':
      return hasLocal;
    default:
      return false;
  }
}

/** Each page in scope's decision, and the pages whose changed text on the server a decision needs. */
export function decideAll(scope: Scope, limits?: MergeLimits): { decisions: Map<string, Decision>; needBodies: string[] } {
  const decisions = new Map<string, Decision>();
  const needBodies: string[] = [];
  for (const [key, sides] of scope.sides) {
    const d = decide(sides, limits);
    if (d.kind === 'needs-remote-body') needBodies.push(key);
    decisions.set(key, d);
  }
  return { decisions, needBodies };
}

export function decide(s: PageSides, limits?: MergeLimits): Decision {
  const B = s.base;
  const R = s.remote;
  const L = s.local;
  const conflict = s.conflict;
  const mergeBase = s.pushedMerged?.text ?? s.baseText;
  const pushedLive = s.pushed !== undefined && !s.pushed.deleted;
  if (s.unreadable) return { kind: 'unreadable' };
  if (s.kind !== 'document' && !L) {
    // Groups and links: only main (or SUMMARY.md, for their place and title) changes them.
    if (R) return { kind: 'no-file' };
    return { kind: 'gone', pushDelete: pushedLive };
  }

  if (R) {
    const pending = s.remoteText === undefined;
    const remoteChanged = !B || pending || !samePageText(s.remoteText, s.baseText);
    if (L) {
      if (conflict) {
        if (remoteChanged && pending) return { kind: 'needs-remote-body' };
        // Main has the page again (a change request that held it was merged): the conflict is
        // now between two texts, and taking the server's side must not delete the file.
        if (conflict.kind === 'deleted-remotely') {
          if (pending) return { kind: 'needs-remote-body' };
          return { kind: 'held', text: L.text, conflict: { kind: 'both-changed', baseText: mergeBase }, refresh: false, keepBase: false };
        }
        // The server's copy follows main, except when main took the writer's side (the change
        // request holding it was merged): the copy keeps the side main dropped, for the writer to settle.
        const mergedOurs = !pending && s.pushedMerged?.text != null && samePageText(s.remoteText, s.pushedMerged.text);
        return { kind: 'held', text: L.text, conflict: null, refresh: remoteChanged && !mergedOurs, keepBase: false };
      }
      if (!remoteChanged || (!pending && samePageText(L.text, s.remoteText))) return { kind: 'text', text: L.text, change: 'none' };
      if (mergeBase === null || s.adopted) {
        // The server's page and the file were never synced with each other.
        if (pending) return { kind: 'needs-remote-body' };
        return { kind: 'held', text: L.text, conflict: { kind: 'local-file-in-the-way', baseText: null }, refresh: false, keepBase: false };
      }
      if (samePageText(L.text, mergeBase)) {
        if (!pending) return { kind: 'text', text: s.remoteText ?? '', change: 'pulled' };
        // The change request holds its own copy of the page: whether that copy must take the
        // server's new text depends on the text.
        if (s.pushed && !s.pushed.deleted) return { kind: 'needs-remote-body' };
        return { kind: 'pull-unseen' };
      }
      if (pending) return { kind: 'needs-remote-body' };
      const merged = mergeText(L.text, mergeBase, s.remoteText ?? '', limits);
      if (merged.kind === 'merged') return { kind: 'text', text: merged.text, change: 'merged' };
      return { kind: 'held', text: L.text, conflict: { kind: 'both-changed', baseText: mergeBase }, refresh: false, keepBase: false };
    }
    // No file here (a group or a link never has one: decided above).
    if (B) {
      if (conflict) {
        if (remoteChanged && pending) return { kind: 'needs-remote-body' };
        return { kind: 'held', text: null, conflict: null, refresh: remoteChanged, keepBase: false };
      }
    }
    if (B && s.fileGone) {
      // (A conflict the writer resolved by deleting the server's copy was about main as last
      // synced: main edited again since is a new conflict, never a silent delete of that edit.)
      if (remoteChanged && !s.pushedMerged?.deleted) {
        // Deleted here, edited there: nothing comes back silently; the server's text goes beside.
        if (pending) return { kind: 'needs-remote-body' };
        return { kind: 'held', text: null, conflict: { kind: 'deleted-locally', baseText: mergeBase }, refresh: false, keepBase: false };
      }
      return { kind: 'push-delete' };
    }
    // A page Quire created whose file went away here before the change request holding it was
    // merged: it goes too, unless main's text is no longer the one Quire sent.
    if (!B && s.fileGone && s.pushedMerged && !s.pushedMerged.deleted) {
      if (pending) return { kind: 'needs-remote-body' };
      if (s.pushedMerged.text !== null && samePageText(s.remoteText, s.pushedMerged.text)) return { kind: 'push-delete' };
      return { kind: 'held', text: null, conflict: { kind: 'deleted-locally', baseText: s.pushedMerged.text }, refresh: false, keepBase: false };
    }
    // No file went away for it (or a page new on the server): its file is written.
    if (pending) return { kind: 'pull-unseen' };
    return { kind: 'text', text: s.remoteText ?? '', change: 'pulled' };
  }

  // Not on the server (any more).
  if (B) {
    if (L) {
      if (conflict) return { kind: 'held', text: L.text, conflict: null, refresh: false, keepBase: true };
      // The change request must not bring back a page main deleted (it holds a move or an old edit of it).
      if (mergeBase !== null && samePageText(L.text, mergeBase)) return { kind: 'delete-file', pushDelete: pushedLive };
      return { kind: 'held', text: L.text, conflict: { kind: 'deleted-remotely', baseText: mergeBase }, refresh: false, keepBase: true };
    }
    return { kind: 'gone', pushDelete: pushedLive };
  }
  // Only in the change request (Quire created it there), or a file not yet a page.
  if (L) {
    if (conflict) return { kind: 'held', text: L.text, conflict: null, refresh: false, keepBase: false };
    return { kind: 'text', text: L.text, change: 'none' };
  }
  return pushedLive && s.fileGone ? { kind: 'push-delete' } : { kind: 'gone', pushDelete: false };
}
