/**
 * `quire cr checkout <n> --dir <sync folder> --to <folder>`: the change request's content as a
 * read-only folder (core/review/checkout), and again to bring it to the latest revision; and
 * what `quire sync` says when it brings checkouts along (`followCheckouts`).
 */
import { type ApiClient, NetworkError } from '../../core/api';
import type { Mirror } from '../../core/mirror';
import { CheckoutRefusedError, type CheckoutReport, checkOut, type FollowReport, followCheckouts } from '../../core/review';
import { flag, UsageError, type ParsedArgs } from './args';
import { type CrContext, withSession } from './cr-actions';
import { EXIT, type CliIo } from './io';
import { errorMessage } from './messages';
import { changeRequestFor, parseNumber } from './review-lookup';
import { safeField, shellWord } from './terminal-text';
import { plural } from '../../../shared/plural';

export async function checkout(rest: string[], args: ParsedArgs, io: CliIo, ctx: CrContext): Promise<number> {
  if (rest.length !== 1) throw new UsageError('quire cr checkout needs one change request number');
  const n = parseNumber(rest[0]);
  const to = flag(args, 'to');
  if (to === undefined || to.trim() === '') throw new UsageError('quire cr checkout needs --to <folder>: the folder to write the change request into');
  return withSession(args, io, ctx, async ({ dir, mirror, review, api, why }) => {
    const cr = await changeRequestFor(review, mirror, args, n, api, io.signal);
    if (!api) {
      io.stderr(`Checking out #${cr.number} needs the server's content, and Quire cannot ask it now (${safeField(why ?? 'offline')}). Nothing was written.`);
      return EXIT.error;
    }
    let report: CheckoutReport;
    try {
      report = await checkOut(api, mirror, cr.id, to, io.signal);
    } catch (err) {
      if (err instanceof CheckoutRefusedError) throw new UsageError(`--to ${err.message}`, { usage: false });
      if (io.signal.aborted) throw err;
      if (err instanceof NetworkError) {
        io.stderr(
          `Checking out #${cr.number} needs the server's content, and the API is not reachable now (${safeField(errorMessage(err, dir))}). Run it again when online; nothing of the checkout is lost.`,
        );
      } else io.stderr(`Checking out #${cr.number}: ${safeField(errorMessage(err, dir))} What was written stays; run it again to finish.`);
      return EXIT.error;
    }
    io.stdout(reportLine(report, dir));
    sayKept(report, io);
    return EXIT.ok;
  });
}

function reportLine(r: CheckoutReport, syncDir: string): string {
  const what = `#${r.changeRequest.number} ${safeField(r.changeRequest.subject) || '(no subject)'}`;
  if (r.first) {
    return `Checked out ${what} into ${safeField(r.folder)}: ${plural(r.pages, 'page')} and ${plural(r.assets, 'file')}, read-only; main at its base is in .quire-checkout/before. \`quire sync --dir ${shellWord(syncDir)}\` keeps it at the change request's latest revision; \`quire preview --dir ${shellWord(r.folder)}\` shows each page before and after.`;
  }
  if (r.written + r.removed === 0) return `The checkout of ${what} in ${safeField(r.folder)} is at its latest revision.`;
  return `The checkout of ${what} in ${safeField(r.folder)} is at its latest revision: ${plural(r.written, 'file')} written, ${r.removed} removed.`;
}

function sayKept(r: CheckoutReport, io: CliIo): void {
  if (r.kept.length === 0) return;
  const shown = r.kept.slice(0, 5).map(safeField).join(', ');
  const more = r.kept.length > 5 ? ` and ${r.kept.length - 5} more` : '';
  io.stderr(
    `${plural(r.kept.length, 'file')} of the checkout in ${safeField(r.folder)} changed there and kept as ${r.kept.length === 1 ? 'it is' : 'they are'}, not the change request's: ${shown}${more}. Nothing in a checkout is pushed; delete a file to get the change request's version back.`,
  );
}

/** After a sync's review refresh: brings the folder's checkouts to their change requests' latest revisions, and says so. */
export async function followCheckoutsAfterSync(
  api: ApiClient,
  mirror: Pick<Mirror, 'catalog' | 'checkouts' | 'reviewRecords' | 'reviewViews' | 'revisionPages' | 'syncFolder' | 'transaction'>,
  io: CliIo,
): Promise<void> {
  if (mirror.checkouts.list().length === 0) return;
  sayFollowed(await followCheckouts(api, mirror, io.signal), mirror, io);
}

/** What following the folder's checkouts did, one line each. */
export function sayFollowed(report: FollowReport, mirror: Pick<Mirror, 'syncFolder'>, io: CliIo): void {
  for (const r of report.updated) {
    io.stdout(reportLine(r, mirror.syncFolder));
    sayKept(r, io);
  }
  for (const d of report.dropped)
    io.stderr(
      `${safeField(d.folder)} no longer holds the checkout of ${d.number === null ? 'its change request' : `#${d.number}`}: Quire stops keeping it current.`,
    );
  for (const f of report.failed)
    io.stderr(
      `The checkout in ${safeField(f.folder)} was not brought up to date: ${safeField(errorMessage(f.error, mirror.syncFolder))} The next sync tries again.`,
    );
}
