/**
 * Moves of files within a space folder, through a staging folder with a journal: every file
 * goes to the staging folder first, then to its new path, so swaps never overwrite each other,
 * and a process killed mid-move has every file put back on the next run.
 */
import { constants, promises as fsp } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { explainFsError, resolveInside, writeFileAtomic } from './safe-fs';

const JOURNAL = 'moves.json';
/** What runMoves names a file in the staging folder: its move's number. */
const STAGED_NAME = /^\d{1,9}$/;

export interface Move {
  key: string;
  from: string;
  to: string;
}

export interface MoveOutcome {
  moved: Move[];
  /** Moves that did not happen: the file is where it was (error: why, when not a change of the folder). */
  failed: { move: Move; error?: unknown }[];
}

/** Puts back files a killed process left in the staging folder (run before scanning). */
export async function recoverStaging(spaceDir: string, stagingDir: string): Promise<string[]> {
  let journal: { moves: { from: string; to: string; staged: string }[] };
  try {
    // Never through a link (nothing in .quire is): one there is no journal of Quire's.
    journal = JSON.parse(
      await fsp.readFile(join(stagingDir, JOURNAL), { encoding: 'utf8', flag: constants.O_RDONLY | constants.O_NOFOLLOW }),
    ) as typeof journal;
  } catch {
    return [];
  }
  const restored: string[] = [];
  let stranded = false;
  for (const m of Array.isArray(journal?.moves) ? journal.moves : []) {
    // A file waits under its move's number (runMoves): any other name is no journal of Quire's, and may lead anywhere.
    if (typeof m?.staged !== 'string' || !STAGED_NAME.test(m.staged) || typeof m.from !== 'string' || typeof m.to !== 'string') continue;
    const staged = join(stagingDir, m.staged);
    if (
      !(await fsp.stat(staged).then(
        () => true,
        () => false,
      ))
    )
      continue;
    const candidates = [m.to, m.from, `${m.from.replace(/\.md$/i, '')}.recovered-${m.staged}.md`];
    let placed: string | undefined;
    for (const candidate of candidates) {
      if (await placeStaged(spaceDir, staged, candidate)) {
        placed = candidate;
        break;
      }
    }
    if (placed === undefined) stranded = true;
    else restored.push(placed);
  }
  // What could not be placed anywhere stays staged, with the journal, for the next run.
  if (!stranded) await fsp.rm(join(stagingDir, JOURNAL), { force: true });
  return restored;
}

/** Moves files through the staging folder (see the module comment). */
export async function runMoves(spaceDir: string, stagingDir: string, moves: readonly Move[]): Promise<MoveOutcome> {
  const outcome: MoveOutcome = { moved: [], failed: [] };
  if (moves.length === 0) return outcome;
  const entries = moves.map((m, i) => ({ ...m, staged: `${i}` }));
  try {
    await fsp.mkdir(stagingDir, { recursive: true });
    await writeFileAtomic(stagingDir, JOURNAL, JSON.stringify({ moves: entries.map(({ from, to, staged }) => ({ from, to, staged })) }));
  } catch (err) {
    for (const m of moves) outcome.failed.push({ move: m, error: err });
    return outcome;
  }
  const staged: typeof entries = [];
  for (const m of entries) {
    try {
      await fsp.rename(resolveInside(spaceDir, m.from), join(stagingDir, m.staged));
      staged.push(m);
    } catch (err) {
      outcome.failed.push({ move: m, ...((err as NodeJS.ErrnoException).code === 'ENOENT' ? {} : { error: explainFsError(err, 'move', m.from) }) });
    }
  }
  let stranded = false;
  for (const m of staged) {
    let target = m.to;
    try {
      const abs = resolveInside(spaceDir, m.to);
      const taken = await fsp.stat(abs).then(
        () => true,
        () => false,
      );
      // Something new sits there: put the file back where it was and try again next cycle.
      if (taken) target = m.from;
      const dest = resolveInside(spaceDir, target);
      await fsp.mkdir(dirname(dest), { recursive: true });
      await fsp.rename(join(stagingDir, m.staged), dest);
      if (target === m.to) outcome.moved.push(m);
      else outcome.failed.push({ move: m });
    } catch (err) {
      outcome.failed.push({ move: m, error: explainFsError(err, 'move', m.from) });
      if (!(await placeStaged(spaceDir, join(stagingDir, m.staged), m.from))) stranded = true;
    }
  }
  // A file that could go neither forward nor back waits in the staging folder with the journal: recoverStaging places it next run.
  if (!stranded) await fsp.rm(join(stagingDir, JOURNAL), { force: true });
  await pruneEmptyDirs(
    spaceDir,
    moves.map((m) => m.from),
  );
  return outcome;
}

/** Moves a staged file to `path` in the space folder when nothing is there and it can be put there; false when it stays staged. */
async function placeStaged(spaceDir: string, staged: string, path: string): Promise<boolean> {
  try {
    const dest = resolveInside(spaceDir, path);
    if (
      await fsp.stat(dest).then(
        () => true,
        () => false,
      )
    )
      return false;
    await fsp.mkdir(dirname(dest), { recursive: true });
    await fsp.rename(staged, dest);
    return true;
  } catch {
    return false;
  }
}

/** Removes folders left empty by moves, never the space folder itself. */
async function pruneEmptyDirs(spaceDir: string, removedPaths: string[]): Promise<void> {
  const dirs = new Set<string>();
  for (const p of removedPaths) {
    for (let d = posix.dirname(p); d !== '.' && d !== '/' && d !== ''; d = posix.dirname(d)) dirs.add(d);
  }
  const deepestFirst = [...dirs].sort((a, b) => b.split('/').length - a.split('/').length);
  for (const d of deepestFirst) {
    const abs = resolveInside(spaceDir, d);
    const entries = await fsp.readdir(abs).catch(() => null);
    if (entries && entries.length === 0) await fsp.rmdir(abs).catch(() => undefined);
  }
}
