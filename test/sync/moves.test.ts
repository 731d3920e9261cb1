/**
 * The move journal (core/sync/moves.ts) on its own: moves go through a staging folder, and a
 * process stopped between taking files into it and putting them in place leaves a journal from
 * which the next run puts every file back — where it was going, else where it was, else beside
 * it — and never anywhere a tampered journal points.
 * A stop is a rename that never returns: the disk is left exactly as a killed process leaves it.
 */
import { existsSync, promises as fsp, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recoverStaging, runMoves, type Move } from '../../src/main/core/sync/moves';
import { listFiles, snapshotTree } from '../helpers/tree';

function folder(files: Record<string, string>): { spaceDir: string; stagingDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'quire-moves-'));
  const spaceDir = join(root, 'space');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(spaceDir, path)), { recursive: true });
    writeFileSync(join(spaceDir, path), text);
  }
  mkdirSync(spaceDir, { recursive: true });
  return { spaceDir, stagingDir: join(root, 'staging') };
}

const asMove = ({ key, from, to }: Move): Move => ({ key, from, to });
const read = (dir: string, path: string) => readFileSync(join(dir, path), 'utf8');

/** Runs the moves and stops them (as a kill would) at the first rename out of the staging folder. */
async function stopAfterStaging(spaceDir: string, stagingDir: string, moves: Move[]): Promise<void> {
  const rename = fsp.rename;
  let staged = 0;
  let stopped: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (stopped = resolve));
  vi.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
    if (String(from).startsWith(stagingDir)) {
      stopped();
      return new Promise<void>(() => undefined); // never returns: the process is gone
    }
    staged++;
    return rename(from, to);
  });
  void runMoves(spaceDir, stagingDir, moves);
  await reached;
  vi.restoreAllMocks();
  expect(staged).toBe(moves.length);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('runMoves', () => {
  it('swaps two files and moves one into a new folder, leaving no empty folder and no journal', async () => {
    const { spaceDir, stagingDir } = folder({ 'a.md': 'A', 'b.md': 'B', 'old/c.md': 'C' });
    const moves = [
      { key: 'a', from: 'a.md', to: 'b.md' },
      { key: 'b', from: 'b.md', to: 'a.md' },
      { key: 'c', from: 'old/c.md', to: 'new/deep/c.md' },
    ];
    const outcome = await runMoves(spaceDir, stagingDir, moves);
    expect(outcome.failed).toEqual([]);
    expect(outcome.moved.map(asMove)).toEqual(moves);
    expect(listFiles(spaceDir)).toEqual(['a.md', 'b.md', 'new/deep/c.md']);
    expect([read(spaceDir, 'a.md'), read(spaceDir, 'b.md'), read(spaceDir, 'new/deep/c.md')]).toEqual(['B', 'A', 'C']);
    expect(snapshotTree(stagingDir).size).toBe(0);
  });

  it('puts a file back where it was when something new took its target, and reports a vanished one without an error', async () => {
    const { spaceDir, stagingDir } = folder({ 'a.md': 'A', 'taken.md': 'new writing' });
    const outcome = await runMoves(spaceDir, stagingDir, [
      { key: 'a', from: 'a.md', to: 'taken.md' },
      { key: 'gone', from: 'gone.md', to: 'elsewhere.md' },
    ]);
    expect(outcome.moved).toEqual([]);
    expect(outcome.failed.map((f) => ({ move: asMove(f.move), error: f.error }))).toEqual([
      { move: { key: 'gone', from: 'gone.md', to: 'elsewhere.md' }, error: undefined },
      { move: { key: 'a', from: 'a.md', to: 'taken.md' }, error: undefined },
    ]);
    expect([read(spaceDir, 'a.md'), read(spaceDir, 'taken.md')]).toEqual(['A', 'new writing']);
    expect(listFiles(spaceDir)).toEqual(['a.md', 'taken.md']);
  });

  it('puts a file back where it was when its target folder cannot be made (a file took its name)', async () => {
    const { spaceDir, stagingDir } = folder({ 'a.md': 'A', 'b.md': 'B' });
    writeFileSync(join(spaceDir, 'new'), 'a file, where the move needs a folder');
    const outcome = await runMoves(spaceDir, stagingDir, [
      { key: 'a', from: 'a.md', to: 'new/a.md' },
      { key: 'b', from: 'b.md', to: 'c.md' },
    ]);
    expect(outcome.moved.map(asMove)).toEqual([{ key: 'b', from: 'b.md', to: 'c.md' }]);
    expect(outcome.failed.map((f) => [f.move.key, String(f.error)])).toEqual([['a', expect.stringMatching(/a\.md/)]]);
    expect(listFiles(spaceDir)).toEqual(['a.md', 'c.md', 'new']);
    expect(read(spaceDir, 'a.md')).toBe('A');
    expect(listFiles(stagingDir)).toEqual([]);
  });

  it('keeps the journal for a file that can go neither forward nor back, and recoverStaging places it next run', async () => {
    const { spaceDir, stagingDir } = folder({ 'a.md': 'A' });
    writeFileSync(join(spaceDir, 'new'), 'a file, where the move needs a folder');
    const rename = fsp.rename;
    vi.spyOn(fsp, 'rename').mockImplementation(async (from, to) => {
      // While the file is in the staging folder, something new is saved where it was.
      if (String(to).startsWith(stagingDir)) {
        await rename(from, to);
        return writeFileSync(join(spaceDir, 'a.md'), 'saved meanwhile');
      }
      return rename(from, to);
    });
    const outcome = await runMoves(spaceDir, stagingDir, [{ key: 'a', from: 'a.md', to: 'new/a.md' }]);
    vi.restoreAllMocks();
    expect(outcome.failed.map((f) => f.move.key)).toEqual(['a']);
    expect(await recoverStaging(spaceDir, stagingDir)).toEqual(['a.recovered-0.md']);
    expect([read(spaceDir, 'a.md'), read(spaceDir, 'a.recovered-0.md')]).toEqual(['saved meanwhile', 'A']);
  });
});

describe('recoverStaging after a stopped run', () => {
  it('puts every staged file where it was going, and forgets the journal', async () => {
    const { spaceDir, stagingDir } = folder({ 'a.md': 'A', 'b.md': 'B', 'old/c.md': 'C' });
    await stopAfterStaging(spaceDir, stagingDir, [
      { key: 'a', from: 'a.md', to: 'b.md' },
      { key: 'b', from: 'b.md', to: 'a.md' },
      { key: 'c', from: 'old/c.md', to: 'new/c.md' },
    ]);
    expect(listFiles(spaceDir)).toEqual([]); // every file is in the staging folder
    expect((await recoverStaging(spaceDir, stagingDir)).sort()).toEqual(['a.md', 'b.md', 'new/c.md']);
    expect([read(spaceDir, 'a.md'), read(spaceDir, 'b.md'), read(spaceDir, 'new/c.md')]).toEqual(['B', 'A', 'C']);
    expect(listFiles(stagingDir)).toEqual([]);
    expect(await recoverStaging(spaceDir, stagingDir)).toEqual([]); // nothing twice
  });

  it('puts a file back where it was when its target was taken since, and beside it when both were', async () => {
    const { spaceDir, stagingDir } = folder({ 'a.md': 'A', 'b.md': 'B' });
    await stopAfterStaging(spaceDir, stagingDir, [
      { key: 'a', from: 'a.md', to: 'x.md' },
      { key: 'b', from: 'b.md', to: 'y.md' },
    ]);
    // Written while the process was down: a's target; b's target and b's old place.
    writeFileSync(join(spaceDir, 'x.md'), 'new x');
    writeFileSync(join(spaceDir, 'y.md'), 'new y');
    writeFileSync(join(spaceDir, 'b.md'), 'new b');
    const restored = await recoverStaging(spaceDir, stagingDir);
    expect(restored.sort()).toEqual(['a.md', 'b.recovered-1.md']);
    expect(read(spaceDir, 'a.md')).toBe('A');
    expect(read(spaceDir, 'b.recovered-1.md')).toBe('B');
    expect([read(spaceDir, 'x.md'), read(spaceDir, 'y.md'), read(spaceDir, 'b.md')]).toEqual(['new x', 'new y', 'new b']);
  });

  it('never follows a tampered journal out of the space folder, nor reads one through a link', async () => {
    const { spaceDir, stagingDir } = folder({ 'a.md': 'A' });
    await stopAfterStaging(spaceDir, stagingDir, [{ key: 'a', from: 'a.md', to: 'x.md' }]);
    const journal = JSON.parse(read(stagingDir, 'moves.json')) as { moves: { from: string; to: string; staged: string }[] };
    const outside = join(dirname(spaceDir), 'secret');
    writeFileSync(outside, 'not Quire’s');
    const tampered = {
      moves: [
        { from: 'a.md', to: 'x.md', staged: '../secret' }, // a staged name that is no move's number
        { from: 'a.md', to: '../../escaped.md', staged: journal.moves[0]!.staged }, // a target outside
      ],
    };
    writeFileSync(join(stagingDir, 'moves.json'), JSON.stringify(tampered));
    await recoverStaging(spaceDir, stagingDir).catch(() => []);
    expect(read(dirname(spaceDir), 'secret')).toBe('not Quire’s');
    expect(existsSync(join(spaceDir, '../../escaped.md'))).toBe(false);
    expect(listFiles(spaceDir)).toEqual(['a.md']); // where it was: the one place the journal names inside the folder
    await fsp.rm(join(spaceDir, 'a.md'));

    // A journal that is a link is no journal of Quire's: nothing is moved.
    const elsewhere = join(dirname(spaceDir), 'elsewhere.json');
    writeFileSync(elsewhere, JSON.stringify({ moves: [{ from: 'a.md', to: 'x.md', staged: journal.moves[0]!.staged }] }));
    await fsp.rm(join(stagingDir, 'moves.json'), { force: true });
    symlinkSync(elsewhere, join(stagingDir, 'moves.json'));
    expect(await recoverStaging(spaceDir, stagingDir)).toEqual([]);
    expect(listFiles(spaceDir)).toEqual([]);
  });

  it('finds nothing to do without a journal, or with one that is not JSON', async () => {
    const { spaceDir, stagingDir } = folder({ 'a.md': 'A' });
    expect(await recoverStaging(spaceDir, stagingDir)).toEqual([]);
    mkdirSync(stagingDir, { recursive: true });
    writeFileSync(join(stagingDir, 'moves.json'), '{"moves": [');
    expect(await recoverStaging(spaceDir, stagingDir)).toEqual([]);
    expect(listFiles(spaceDir)).toEqual(['a.md']);
  });
});
