import { resolve } from 'node:path';
import { CheckSetupError, checkFolderInTurns, type FolderCheck, hasMirror, type Problem, type StepProgress } from '../../../core/check';
import { dirFlag, has, spaceFlags, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { plural } from '../../../../shared/plural';
import { safeField } from '../terminal-text';

/** Exit code when the check found errors: 3, "needs you", as for `quire sync`. */
const ERRORS_FOUND = EXIT.conflicts;

/**
 * `quire check --dir <folder> [--space <id>]... [--json]`: offline, from the folder and the mirror.
 * Exit 0 without errors (warnings printed), 3 with errors, 1 when it could not run.
 */
export async function check(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = resolve(dirFlag(args));
  const spaceIds = spaceFlags(args);
  const mirror = hasMirror(dir) ? ctx.openMirror(dir) : null;
  let report: FolderCheck;
  try {
    // In turns, so Ctrl-C stops it between two files and a long check shows how far it got.
    report = await checkFolderInTurns(dir, mirror, spaceIds, { signal: io.signal, onProgress: progressLine(io) });
  } catch (err) {
    if (err instanceof CheckSetupError) {
      io.stderr(`quire check: ${err.message}`);
      return EXIT.error;
    }
    throw err;
  } finally {
    mirror?.close();
  }
  if (has(args, 'json')) io.stdout(JSON.stringify(report, null, 2));
  else io.stdout(formatReport(report));
  return report.counts.error > 0 ? ERRORS_FOUND : EXIT.ok;
}

/** After the first second, a line a second on stderr: `Checking: 5000 of 20000 files…`. */
function progressLine(io: CliIo, now = () => Date.now()): (p: StepProgress) => void {
  let lastAt = now();
  return (p) => {
    const t = now();
    if (t - lastAt < 1000) return;
    lastAt = t;
    io.stderr(`Checking: ${p.done} of ${plural(p.total, 'file')}…`);
  };
}

function formatProblem(p: Problem): string {
  const where = p.line === null ? p.file : `${p.file}:${p.line}`;
  return `${safeField(where)}: ${p.severity}: ${safeField(p.message)}\n    fix: ${safeField(p.fix)}`;
}

function formatReport(report: FolderCheck): string {
  const lines: string[] = [];
  const several = report.spaces.length > 1;
  for (const space of report.spaces) {
    if (several || space.problems.length > 0) lines.push(`${safeField(space.title)}${space.folder ? ` (${safeField(space.folder)}/)` : ''}`);
    for (const p of space.problems) lines.push(formatProblem(p));
    if (several && space.problems.length === 0) lines.push('  no problems');
  }
  const { error, warning, info } = report.counts;
  // The verdict names what was listed above it: never "no problems" after a problem.
  const verdict =
    error > 0
      ? `${plural(error, 'error')} to fix before pushing`
      : warning > 0
        ? `no errors; the ${warning === 1 ? 'warning is' : 'warnings are'} worth a look`
        : info > 0
          ? 'no errors or warnings; the notes above are for information'
          : 'no problems found';
  lines.push(`Checked ${plural(report.spaces.length, 'space')}: ${plural(error, 'error')}, ${plural(warning, 'warning')}, ${info} info — ${verdict}.`);
  return lines.join('\n');
}
