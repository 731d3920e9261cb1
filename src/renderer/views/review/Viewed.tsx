import { useEffect, useState } from 'react';
import type { PageDiffVM } from '../../../shared/contract';
import { useAction } from '../../hooks/use-query';

/** "3 of 7 pages viewed". */
export function ViewedCount({ diff }: { diff: PageDiffVM[] }) {
  if (diff.length === 0) return null;
  const viewed = diff.filter((d) => d.viewed).length;
  return (
    <span className="muted small" data-testid="viewed-count">
      {viewed} of {diff.length} {diff.length === 1 ? 'page' : 'pages'} viewed
    </span>
  );
}

/** GitHub's "Viewed" checkbox: the mark clears itself when a later revision changes the page (then it says so). */
export function ViewedBox({ spaceId, changeRequestId, page }: { spaceId: string; changeRequestId: string; page: PageDiffVM }) {
  const action = useAction();
  /** What the user just chose, shown until the change request's answer says the same (or the request failed). */
  const [wanted, setWanted] = useState<boolean | null>(null);
  const viewed = page.viewed === true;
  useEffect(() => {
    if (wanted === viewed) setWanted(null);
  }, [wanted, viewed]);
  useEffect(() => {
    if (action.error) setWanted(null);
  }, [action.error]);
  return (
    <label className="viewed-box small" title={action.error?.message}>
      <input
        type="checkbox"
        aria-label={`${page.title} viewed`}
        checked={wanted ?? viewed}
        disabled={action.busy}
        onChange={(e) => {
          setWanted(e.target.checked);
          void action.run('review.setViewed', { spaceId, changeRequestId, pageId: page.pageId, viewed: e.target.checked });
        }}
      />{' '}
      Viewed
      {page.changedSinceViewed && <span className="badge warn">changed since you viewed it</span>}
    </label>
  );
}
