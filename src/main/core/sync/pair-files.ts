/**
 * Moves, as the scan sees them: which files that appeared are known pages' files that vanished.
 *
 * - Within what the scan looked at: the same bytes first, then what pair-moves.ts says (a title
 *   one vanished page and one new file hold alone, then nearly the same text).
 * - Across cycles: a page deleted here whose delete main does not have yet — not pushed yet, or
 *   only in the open change request — is still a file that went away. A new file with its text
 *   (or nearly) is that page moved: it keeps its id (and its history and comments), and the
 *   change request brings it back instead of holding a second page with the same text.
 */
import type { Mirror } from '../mirror';
import { pairMoves, pairNearlySame, type Vanished } from './plan';
import { isNewPageKey } from './plan';
import { GONE_REMOTELY, knownText } from './remote';

export interface SeenVanished {
  key: string;
  path: string;
  /** Hash of the bytes its file held when last seen, if known. */
  hash: string | null;
}

export interface SeenAppeared {
  path: string;
  raw: string;
  hash: string;
}

export interface Paired {
  moved: Map<string, { from: string; to: string; text: string | null }>;
  /** Vanished files no new file stands for, by key. */
  gone: Map<string, string>;
  /** New files no vanished file stands for. */
  added: { path: string; text: string }[];
}

/** Pairs the vanished and appeared files of one scan (`across`: also with pages deleted here in earlier cycles). */
export function pairFiles(
  mirror: Pick<Mirror, 'content' | 'folder' | 'history' | 'outbox'>,
  spaceId: string,
  vanished: readonly SeenVanished[],
  appeared: readonly SeenAppeared[],
  across: boolean,
): Paired {
  const moved: Paired['moved'] = new Map();
  const left = [...appeared];
  const take = (path: string) =>
    left.splice(
      left.findIndex((a) => a.path === path),
      1,
    );
  for (const v of vanished) {
    const i = v.hash === null ? -1 : left.findIndex((a) => a.hash === v.hash);
    if (i < 0) continue;
    const [file] = left.splice(i, 1);
    moved.set(v.key, { from: v.path, to: file!.path, text: null });
  }
  const unpaired = vanished.filter((v) => !moved.has(v.key));
  const byText = pairMoves(
    unpaired.map((v) => ({ key: v.key, path: v.path, text: knownText(mirror, spaceId, v.key) })),
    left.map((a) => ({ path: a.path, text: a.raw })),
    () => false,
  );
  for (const [key, file] of byText) {
    moved.set(key, { from: unpaired.find((x) => x.key === key)!.path, to: file.path, text: file.text });
    take(file.path);
  }
  const gone = new Map(unpaired.filter((v) => !moved.has(v.key)).map((v) => [v.key, v.path] as const));
  if (across && left.length > 0) {
    const earlier = deletedHere(mirror, spaceId);
    for (const [key, file] of pairNearlySame(
      earlier,
      left.map((a) => ({ path: a.path, text: a.raw })),
    )) {
      moved.set(key, { from: earlier.find((e) => e.key === key)!.path, to: file.path, text: file.text });
      take(file.path);
    }
  }
  return { moved, gone, added: left.map((a) => ({ path: a.path, text: a.raw })) };
}

/**
 * Pages whose file went away here in an earlier cycle and which the server still has: their
 * delete waits to be pushed (the node keeps no file; the page may be one Quire created in the
 * change request), or only the open change request has it (main still has the page). Each with
 * the path it had and the last text Quire kept of it.
 */
function deletedHere(mirror: Pick<Mirror, 'content' | 'folder' | 'history' | 'outbox'>, spaceId: string): Vanished[] {
  // Deletes not pushed yet: the page is on the server (main's, or one Quire created in the change request).
  const waiting = new Set<string>();
  for (const key of mirror.folder.pending(spaceId)) {
    const node = mirror.folder.node(spaceId, key);
    if (node && node.kind === 'document' && node.path === null && !isNewPageKey(key)) waiting.add(key);
  }
  // Deletes in the open change request: main still has the page (the request can bring it back).
  const inRequest = new Set<string>();
  for (const [id, p] of mirror.outbox.pushedPages(spaceId)) if (p.deleted && !waiting.has(id) && !mirror.folder.node(spaceId, id)?.path) inRequest.add(id);
  const out: Vanished[] = [];
  for (const key of [...waiting, ...inRequest]) {
    const base = mirror.content.basePage(spaceId, key);
    if (base?.meta[GONE_REMOTELY] === true || (base ? base.type !== 'document' : !waiting.has(key))) continue;
    const last = lastKept(mirror, spaceId, key);
    const path = last?.path ?? mirror.outbox.pushedPage(spaceId, key)?.path ?? null;
    if (path === null) continue;
    out.push({ key, path, text: last?.text ?? knownText(mirror, spaceId, key) });
  }
  return out;
}

/** The last version history kept of a page (what its file held before it went, and where). */
function lastKept(mirror: Pick<Mirror, 'history'>, spaceId: string, key: string): { text: string; path: string | null } | null {
  try {
    const [latest] = mirror.history.versions(spaceId, key);
    const text = latest ? mirror.history.text(spaceId, key, latest.number) : undefined;
    return text === undefined ? null : { text, path: latest!.path };
  } catch {
    return null; // history is derived data: damaged, it says nothing here
  }
}
