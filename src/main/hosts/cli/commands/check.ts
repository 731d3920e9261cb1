import { resolve } from 'node:path';
import { CheckSetupError, checkFolderInTurns, type FolderCheck, type Problem, type ProblemCode, type Severity, type StepProgress } from '../../../core/check';
import { hasMirror } from '../../../core/mirror';
import { dirFlag, has, spaceFlags, type ParsedArgs } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { plural } from '../../../../shared/plural';
import { safeField } from '../terminal-text';

/** Exit code when the check found errors: 3, "needs you", as for `quire sync`. */
const ERRORS_FOUND = EXIT.conflicts;

/**
 * `quire check --dir <folder> [--space <id>]... [--errors-only] [--json]`: offline, from the folder
 * and the mirror. Exit 0 without errors (warnings printed), 3 with errors, 1 when it could not run.
 * `--errors-only` leaves warnings and info out of what is printed (the summary still counts them).
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
  const errorsOnly = has(args, 'errors-only');
  const shown = errorsOnly ? { ...report, spaces: report.spaces.map((s) => ({ ...s, problems: s.problems.filter((p) => p.severity === 'error') })) } : report;
  if (has(args, 'json')) io.stdout(JSON.stringify(shown, null, 2));
  else io.stdout(formatReport(shown, report.counts, errorsOnly));
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

/** Past this many problems of one kind in a space, the rest of that kind is one line with its count. */
const LISTED_PER_KIND = 20;

/** What each kind of problem is, as a group heading. */
const KINDS: Partial<Record<ProblemCode, string>> = {
  'broken-link': 'Broken links',
  'missing-asset': 'Missing images and files',
  'broken-anchor': 'Links to missing anchors',
  'link-outside-folder': 'Links out of the folder',
  'asset-outside-assets': 'Files outside .gitbook/assets',
  'unknown-page-id': 'Unknown page ids',
  'unknown-file-id': 'Unknown file ids',
  'not-in-summary': 'Pages not in SUMMARY.md',
  'summary-entry-without-file': 'SUMMARY.md entries without a file',
  'summary-duplicate': 'Duplicate SUMMARY.md entries',
  'summary-missing': 'Spaces without SUMMARY.md',
  'gitbook-yaml': '.gitbook.yaml settings',
  'redirect-target': 'Redirects that lead to no page',
  'redirect-shadowed': 'Redirects that never apply',
  frontmatter: 'Frontmatter that does not parse',
  'case-clash': 'Names differing only in case',
  'not-utf8': 'Files that are not UTF-8',
  'too-large': 'Files too large to push',
  'unused-asset': 'Assets no page uses',
  'block-unclosed': 'Unclosed blocks',
  'block-unexpected-end': 'End tags that close nothing',
  'block-mismatched-end': 'Blocks closed out of order',
  'block-unknown-block': 'Blocks GitBook does not document',
  'block-missing-argument': 'Blocks missing an argument',
  'block-misplaced': 'Misplaced blocks',
  'block-unterminated-tag': 'Unterminated tags',
  'block-malformed-tag': 'Unreadable tags',
  'block-in-html': 'Tags inside HTML',
  'openapi-missing-operation': 'OpenAPI blocks naming what their specification lacks',
  'openapi-unreadable-spec': 'OpenAPI specifications that do not parse',
};

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

function formatProblem(p: Problem): string {
  const where = p.line === null ? p.file : `${p.file}:${p.line}`;
  return `    ${safeField(where)}: ${p.severity}: ${safeField(p.message)}\n        fix: ${safeField(p.fix)}`;
}

const severityCount = (n: number, severity: Severity): string => (severity === 'info' ? `${n.toLocaleString('en-US')} info` : plural(n, severity));

/** A space's problems grouped by kind (worst first, then the most frequent), each group headed by its count. */
function formatGroups(problems: readonly Problem[]): string[] {
  const groups = new Map<string, Problem[]>();
  for (const p of problems) {
    const key = `${p.severity} ${p.code}`;
    const list = groups.get(key);
    if (list) list.push(p);
    else groups.set(key, [p]);
  }
  const ordered = [...groups.values()].sort(
    (a, b) => SEVERITY_RANK[a[0]!.severity] - SEVERITY_RANK[b[0]!.severity] || b.length - a.length || (a[0]!.code < b[0]!.code ? -1 : 1),
  );
  const lines: string[] = [];
  for (const group of ordered) {
    const { code, severity } = group[0]!;
    lines.push(`  ${KINDS[code] ?? code}: ${severityCount(group.length, severity)}`);
    for (const p of group.slice(0, LISTED_PER_KIND)) lines.push(formatProblem(p));
    const rest = group.length - LISTED_PER_KIND;
    if (rest > 0) lines.push(`    … and ${rest.toLocaleString('en-US')} more of these (\`quire check --json\` lists every one)`);
  }
  return lines;
}

function formatReport(report: FolderCheck, counts: FolderCheck['counts'], errorsOnly: boolean): string {
  const lines: string[] = [];
  const several = report.spaces.length > 1;
  for (const space of report.spaces) {
    if (several || space.problems.length > 0) lines.push(`${safeField(space.title)}${space.folder ? ` (${safeField(space.folder)}/)` : ''}`);
    lines.push(...formatGroups(space.problems));
    if (several && space.problems.length === 0) lines.push(errorsOnly ? '  no errors' : '  no problems');
  }
  const { error, warning, info } = counts;
  // The verdict names what was listed above it: never "no problems" after a problem.
  const verdict =
    error > 0
      ? `${plural(error, 'error')} to fix before pushing`
      : errorsOnly
        ? 'no errors'
        : warning > 0
          ? `no errors; the ${warning === 1 ? 'warning is' : 'warnings are'} worth a look`
          : info > 0
            ? 'no errors or warnings; the notes above are for information'
            : 'no problems found';
  const hidden = errorsOnly && warning + info > 0 ? ` (warnings and info not listed: --errors-only)` : '';
  lines.push(
    `Checked ${plural(report.spaces.length, 'space')}: ${plural(error, 'error')}, ${plural(warning, 'warning')}, ${severityCount(info, 'info')} — ${verdict}.${hidden}`,
  );
  return lines.join('\n');
}
