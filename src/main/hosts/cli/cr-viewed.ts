/**
 * `quire cr viewed <n> <page> [--unset]`: the reviewer's mark on a page of a change request,
 * kept in the folder (never sent) until the page changes again. The page is named by its file in
 * the folder, its path in the change request, or its id; the change request's pages are read
 * again first when the API answers (a new revision may have changed them), else as last fetched.
 */
import { findPage, PageNotFoundError } from '../../core/history';
import type { ChangeRequestView } from '../../core/review';
import { has } from './args';
import type { Session } from './cr-actions';
import { EXIT } from './io';
import { errorMessage } from './messages';
import { safeField } from './terminal-text';
import { plural } from '../../../shared/plural';

export async function viewed(s: Session, cr: ChangeRequestView, target: string): Promise<number> {
  if (s.api) {
    try {
      await s.review.readChangeRequest(s.api, cr.id, s.io.signal);
      await s.review.loadChangeRequestDiff(s.api, cr.id);
    } catch (err) {
      if (s.io.signal.aborted) throw err;
      s.io.stderr(`Using the pages of #${cr.number} as last fetched (${safeField(errorMessage(err, s.dir))})`);
    }
  }
  const pages = s.review.changeRequestDiff(cr.id)?.pages;
  if (!pages) throw new Error(`The pages of #${cr.number} were never fetched: run \`quire cr show ${cr.number}\` once the API is reachable.`);
  const fileOf = (pageId: string) => s.mirror.folder.node(cr.spaceId, pageId)?.path ?? null;
  let page = pages.find((p) => p.pageId === target || p.path === target || fileOf(p.pageId) === target);
  if (!page && /[/\\]|\.md$/i.test(target)) {
    try {
      const ref = findPage(s.mirror, s.dir, target);
      page = pages.find((p) => ref.spaceId === cr.spaceId && p.pageId === ref.pageKey);
    } catch (err) {
      if (!(err instanceof PageNotFoundError)) throw err;
    }
  }
  if (!page) {
    const listed = pages.map((p) => `“${safeField(p.title)}” (${safeField(fileOf(p.pageId) ?? p.path ?? p.pageId)})`).join(', ');
    throw new Error(`${safeField(target)} is not a page #${cr.number} changes (it changes: ${listed || 'no page'}).`);
  }
  const unset = has(s.args, 'unset');
  const summary = s.review.markViewed(cr.id, page.pageId, !unset);
  s.io.stdout(
    `Marked “${safeField(page.title)}” ${unset ? 'not viewed' : 'viewed'} in #${cr.number}: ${summary.viewed} of ${plural(summary.total, 'page')} viewed.`,
  );
  return EXIT.ok;
}
