/**
 * `quire cr diff <n> [--page <file>] [--stat] [--word]`: a change request against its base,
 * page by page, as a unified diff of the page files in git's format (`diff --git`, `new file`,
 * `rename from`/`rename to`, hunks), so a pager or `git apply` reads it; in colour on a
 * terminal, plain when piped. Online it reads the change request's current revision first;
 * offline it answers from the mirror when the mirror has the content, else says it needs the
 * server.
 */
import { isAbsolute, relative } from 'node:path';
import { diffHunks, type Hunk, type PageFileDiff, splitLines, wordDiff } from '../../core/review';
import { flag, has, UsageError, type ParsedArgs } from './args';
import { EXIT, type CliIo, type Styled, writeStyled } from './io';
import { errorMessage } from './messages';
import { changeRequestFor, parseNumber } from './review-lookup';
import { safeField } from './terminal-text';
import { type CrContext, withSession } from './cr-actions';

export async function run(rest: string[], args: ParsedArgs, io: CliIo, ctx: CrContext): Promise<number> {
  if (rest.length !== 1) throw new UsageError('quire cr diff needs one change request number');
  const n = parseNumber(rest[0]);
  if (has(args, 'stat') && has(args, 'word')) throw new UsageError('--stat and --word do not go together: choose one');
  return withSession(args, io, ctx, async ({ dir, mirror, review, api, why }) => {
    const cr = await changeRequestFor(review, mirror, args, n, api, io.signal);
    let problem = why;
    if (api) {
      try {
        // The change request as it is now (it may have moved since the last refresh), then its content.
        await review.readChangeRequest(api, cr.id, io.signal);
        await review.loadChangeRequestDiff(api, cr.id);
      } catch (err) {
        if (io.signal.aborted) throw err;
        problem = errorMessage(err, dir);
      }
    }
    const files = review.changeRequestFiles(cr.id);
    if (!files) {
      io.stderr(
        `quire cr diff: the content of #${cr.number} is not in the mirror yet, and it needs the server (${safeField(problem ?? 'the API is not reachable')}). Run it again when the API is reachable.`,
      );
      return EXIT.error;
    }
    if (problem !== null) io.stderr(`Showing #${cr.number} as the mirror last had it (${safeField(problem)})`);
    // Paths from the sync folder's root, as the folder has them (a patch applies there).
    const folder = mirror.catalog.space(files.spaceId)?.folder ?? '';
    const fromRoot = (path: string | null) => (path === null || folder === '' ? path : `${folder}/${path}`);
    const all = files.pages.map((p) => ({ ...p, path: fromRoot(p.path), previousPath: fromRoot(p.previousPath) }));
    const pageArg = flag(args, 'page');
    const named = pageArg !== undefined && isAbsolute(pageArg) ? relative(dir, pageArg) : pageArg;
    const pages = named === undefined ? all : [pickPage(all, named, fromRoot, cr.number)];
    if (pages.length === 0) {
      io.stdout(`#${cr.number} changes no page.`);
      return EXIT.ok;
    }
    if (has(args, 'stat')) printStat(io, pages);
    else for (const page of pages) printPage(io, page, has(args, 'word'), io.colour?.() ?? false);
    return EXIT.ok;
  });
}

/** The page `--page` names: its file in the change request or at its base (from the sync folder or its space folder), or its page id. */
function pickPage(pages: readonly PageFileDiff[], given: string, fromRoot: (path: string | null) => string | null, n: number): PageFileDiff {
  const wanted = given.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  const found = pages.find(
    (p) => p.pageId === given || [p.path, p.previousPath].some((path) => path !== null && (path === wanted || path === fromRoot(wanted))),
  );
  if (found) return found;
  const listed = pages.map((p) => safeField(p.path ?? p.pageId)).join(', ');
  throw new UsageError(`#${n} does not change ${safeField(given)}${listed ? `; it changes ${listed}` : ''}.`, { usage: false });
}

const a = (path: string | null) => `a/${path ?? ''}`;
const b = (path: string | null) => `b/${path ?? ''}`;

/** git's extended header of a page: which files, and whether it was created, deleted, moved or renamed. */
function header(p: PageFileDiff): string[] {
  const from = p.previousPath ?? p.path;
  const lines = [`diff --git ${a(from)} ${b(p.path)}`];
  if (p.change === 'added') lines.push('new file mode 100644');
  if (p.change === 'removed') lines.push('deleted file mode 100644');
  if (p.previousPath !== null) {
    lines.push(`similarity index ${similarity(p)}%`, `rename from ${p.previousPath}`, `rename to ${p.path ?? ''}`);
  }
  return lines;
}

/** How much of the file stayed, as git estimates it for a rename (by lines). */
function similarity(p: PageFileDiff): number {
  if (p.before === null || p.after === null || p.before === p.after) return 100;
  const total = Math.max(splitLines(p.before).lines.length, splitLines(p.after).lines.length, 1);
  return Math.max(0, Math.min(99, Math.round((100 * (total - Math.max(p.linesAdded, p.linesRemoved))) / total)));
}

function printPage(io: CliIo, p: PageFileDiff, words: boolean, colour: boolean): void {
  for (const line of header(p)) writeStyled(io, [{ text: line, style: 'meta' }]);
  if (p.before === p.after || (p.before === null && p.after === null)) return;
  writeStyled(io, [{ text: `--- ${p.before === null ? '/dev/null' : a(p.previousPath ?? p.path)}`, style: 'meta' }]);
  writeStyled(io, [{ text: `+++ ${p.after === null ? '/dev/null' : b(p.path)}`, style: 'meta' }]);
  for (const hunk of diffHunks(p.before, p.after)) {
    writeStyled(io, [{ text: hunkHeader(hunk), style: 'hunk' }]);
    if (words) printWords(io, hunk, colour);
    else for (const row of hunk.rows) writeStyled(io, [rowPart(row.kind, row.text)]);
    noNewline(io, p, hunk, words);
  }
}

const range = (start: number, count: number): string => (count === 1 ? `${start}` : `${start},${count}`);
const hunkHeader = (h: Hunk): string => `@@ -${range(h.oldStart, h.oldCount)} +${range(h.newStart, h.newCount)} @@`;

function rowPart(kind: 'same' | 'removed' | 'added', text: string): Styled {
  if (kind === 'removed') return { text: `-${text}`, style: 'removed' };
  if (kind === 'added') return { text: `+${text}`, style: 'added' };
  return { text: ` ${text}` };
}

/** `\ No newline at end of file` after the last line of a side that has none, as diff writes it. */
function noNewline(io: CliIo, p: PageFileDiff, hunk: Hunk, words: boolean): void {
  if (words) return;
  const last = hunk.rows.at(-1);
  if (!last) return;
  const oldLast = splitLines(p.before);
  const newLast = splitLines(p.after);
  const endsOld = last.oldLine !== null && last.oldLine === oldLast.lines.length && !oldLast.endsWithNewline;
  const endsNew = last.newLine !== null && last.newLine === newLast.lines.length && !newLast.endsWithNewline;
  if (endsOld || endsNew) io.stdout('\\ No newline at end of file');
}

/**
 * A hunk word by word, as `git diff --word-diff` shows it: the lines after the change, with
 * what was removed `[-like this-]` and what was added `{+like this+}` inline; on a terminal, in
 * red and green without the marks.
 */
function printWords(io: CliIo, hunk: Hunk, colour: boolean): void {
  const rows = hunk.rows;
  for (let k = 0; k < rows.length; ) {
    if (rows[k]!.kind === 'same') {
      io.stdout(rows[k]!.text);
      k++;
      continue;
    }
    const removed: string[] = [];
    const added: string[] = [];
    while (k < rows.length && rows[k]!.kind !== 'same') (rows[k]!.kind === 'removed' ? removed : added).push(rows[k++]!.text);
    const runs = wordDiff(removed.join('\n'), added.join('\n'));
    // Runs may span lines: cut them at line breaks, one output line at a time.
    let line: Styled[] = [];
    for (const run of runs) {
      const pieces = run.text.split('\n');
      pieces.forEach((piece, i) => {
        if (i > 0) {
          writeStyled(io, line);
          line = [];
        }
        if (piece === '') return;
        if (run.kind === 'same') line.push({ text: piece });
        else if (colour) line.push({ text: piece, style: run.kind });
        else line.push({ text: run.kind === 'removed' ? `[-${piece}-]` : `{+${piece}+}` });
      });
    }
    writeStyled(io, line);
  }
}

/** `--stat`: per page, its file and the lines added and removed; then the totals and what was created, deleted, moved or renamed. */
function printStat(io: CliIo, pages: readonly PageFileDiff[]): void {
  const names = pages.map(statName);
  const width = Math.max(...names.map((n) => n.length));
  const most = Math.max(...pages.map((p) => p.linesAdded + p.linesRemoved), 1);
  const barWidth = Math.max(1, Math.min(40, most));
  for (const [i, p] of pages.entries()) {
    const total = p.linesAdded + p.linesRemoved;
    const scale = (x: number) => (x === 0 ? 0 : Math.max(1, Math.round((x * barWidth) / most)));
    const parts: Styled[] = [{ text: ` ${names[i]!.padEnd(width)} | ${String(total).padStart(String(most).length)}${total ? ' ' : ''}` }];
    if (p.linesAdded) parts.push({ text: '+'.repeat(scale(p.linesAdded)), style: 'added' });
    if (p.linesRemoved) parts.push({ text: '-'.repeat(scale(p.linesRemoved)), style: 'removed' });
    writeStyled(io, parts);
  }
  const added = pages.reduce((s, p) => s + p.linesAdded, 0);
  const removed = pages.reduce((s, p) => s + p.linesRemoved, 0);
  io.stdout(
    ` ${pages.length} page${pages.length === 1 ? '' : 's'} changed, ${added} insertion${added === 1 ? '' : 's'}(+), ${removed} deletion${removed === 1 ? '' : 's'}(-)`,
  );
  for (const p of pages) {
    if (p.change === 'added') io.stdout(` create ${p.path ?? p.title}`);
    else if (p.change === 'removed') io.stdout(` delete ${p.path ?? p.title}`);
    if (p.previousPath !== null) io.stdout(` ${p.relocation === 'renamed' ? 'rename' : 'move'} ${statName(p)} (${similarity(p)}%)`);
  }
}

/** A page's file as `--stat` names it: `path`, or `folder/{old.md => new.md}` when it moved or was renamed. */
function statName(p: PageFileDiff): string {
  const to = p.path ?? p.title;
  if (p.previousPath === null) return to;
  const from = p.previousPath.split('/');
  const into = to.split('/');
  let common = 0;
  while (common < from.length - 1 && common < into.length - 1 && from[common] === into[common]) common++;
  const prefix = from.slice(0, common).join('/');
  const change = `{${from.slice(common).join('/')} => ${into.slice(common).join('/')}}`;
  return prefix ? `${prefix}/${change}` : common === 0 ? `${p.previousPath} => ${to}` : change;
}
