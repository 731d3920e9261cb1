/**
 * `quire cr merge` checks the folder first: while a page of the change request has an open
 * conflict there, or `quire check` finds errors in one, the merge is held back with the reason;
 * `--force` goes past these local checks (never past the server's merge rules: the server decides).
 */
import { NetworkError } from '../../core/api';
import { type MergeHold, mergeHolds } from '../../core/check';
import type { Mirror } from '../../core/mirror';
import type { ChangeRequestView, ReviewService } from '../../core/review';
import type { Session } from './cr-actions';
import { errorMessage } from './messages';
import { safeField } from './terminal-text';
import { plural } from '../../../shared/plural';

/** What in the folder holds the merge of `cr` back, as far as its pages are known (empty: nothing). */
export function localHolds(
  mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'openapi' | 'syncFolder'>,
  review: ReviewService,
  cr: ChangeRequestView,
): MergeHold[] {
  if (cr.status === 'merged' || cr.status === 'archived') return [];
  const pages = review.changeRequestDiff(cr.id)?.pages ?? [];
  return mergeHolds(
    mirror,
    cr.spaceId,
    pages.map((p) => ({ pageId: p.pageId, title: p.title, kind: p.kind })),
  );
}

/** One hold in words: “FAQ” (faq.md) has an open conflict in your folder: resolve it first (…). */
export function holdWords(h: MergeHold): string {
  const page = `“${safeField(h.title)}” (${safeField(h.path)}`;
  if (h.code === 'conflict') return `${page}) has an open conflict in your folder: resolve it first (\`quire status\` shows it)`;
  const first = h.problems[0]!;
  return `\`quire check\` finds ${plural(h.problems.length, 'error')} in ${page}${first.line !== null ? `, line ${first.line}` : ''}: ${safeField(first.message)})`;
}

/**
 * Says why the merge is held back and returns true; false when nothing here holds it. Offline it
 * is false: the merge needs the server, and says so. Pages that cannot be read now are taken as
 * last fetched; never fetched, they hold the merge back (nothing could be checked).
 */
export async function heldBack(s: Session, cr: ChangeRequestView): Promise<boolean> {
  if (!s.api) return false;
  const force = `\`quire cr merge ${cr.number} --force\` merges anyway (the server’s merge rules still apply).`;
  try {
    await s.review.readChangeRequest(s.api, cr.id, s.io.signal);
    await s.review.loadChangeRequestDiff(s.api, cr.id);
  } catch (err) {
    if (s.io.signal.aborted) throw err;
    if (err instanceof NetworkError) return false;
    if (!s.review.changeRequestDiff(cr.id)) {
      s.io.stdout(`Merging #${cr.number}: held back — its pages could not be read to check them (${safeField(errorMessage(err, s.dir))}). ${force}`);
      return true;
    }
  }
  const holds = localHolds(s.mirror, s.review, cr);
  if (holds.length === 0) return false;
  s.io.stdout(`Merging #${cr.number}: held back — ${holds.map(holdWords).join('; ')}. ${force}`);
  return true;
}
