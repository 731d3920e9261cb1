import { useId, useState } from 'react';
import type { ChangeRequestDetailVM } from '../../../shared/contract';

/**
 * Merging asks first, naming the change request, its pages and its reviews; while a page of it
 * has a conflict or check errors in the folder, the merge is held back with the reason, and goes
 * only when "Merge anyway" is ticked (the server's merge rules still apply).
 */
export function MergeConfirm({
  detail,
  busy,
  onMerge,
  onCancel,
}: {
  detail: ChangeRequestDetailVM;
  busy: boolean;
  onMerge(force: boolean): void;
  onCancel(): void;
}) {
  const id = useId();
  const [anyway, setAnyway] = useState(false);
  const cr = detail.changeRequest;
  const holds = detail.mergeHolds ?? [];
  const approvals = detail.reviews.filter((r) => !r.outdated && r.status === 'approved').length;
  const current = detail.reviews.filter((r) => !r.outdated).length;
  return (
    <div className="merge-confirm" role="alertdialog" aria-labelledby={`${id}-title`} aria-describedby={`${id}-what`} data-testid="merge-confirm">
      <h4 id={`${id}-title`}>
        Merge #{cr.number} “{cr.subject}” into main?
      </h4>
      <div id={`${id}-what`}>
        <p className="small">
          {detail.diff.length === 1 ? '1 page changes' : `${detail.diff.length} pages change`}:{' '}
          {detail.diff.map((d) => `${d.title} (${d.change})`).join(', ') || 'none'}.{' '}
          {current === 0 ? 'Nobody has reviewed it.' : `${current} ${current === 1 ? 'review' : 'reviews'}, ${approvals} approving.`}
        </p>
        {holds.length > 0 && (
          <>
            <p className="notice error small" role="alert">
              Held back: {holds.map((h) => h.message).join('; ')}.
            </p>
            <label className="small">
              <input type="checkbox" checked={anyway} onChange={(e) => setAnyway(e.target.checked)} /> Merge anyway (the server’s merge rules still apply)
            </label>
          </>
        )}
      </div>
      <div className="form-buttons">
        <button type="button" className="primary" disabled={busy || (holds.length > 0 && !anyway)} onClick={() => onMerge(holds.length > 0)}>
          Merge into main
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
