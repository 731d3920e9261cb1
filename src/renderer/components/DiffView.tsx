import { useMemo } from 'react';
import { lineDiff } from '../lib/line-diff';

/** Unified line diff of two texts. */
export function DiffView({ before, after, label }: { before: string | null; after: string | null; label: string }) {
  const lines = useMemo(() => lineDiff(before ?? '', after ?? ''), [before, after]);
  return (
    <pre className="diff" role="figure" aria-label={label}>
      {lines.map((l, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a diff line has no identity but its place; the list is rebuilt whole.
        <div key={i} className={`diff-line ${l.kind}`}>
          <span className="diff-sign" aria-hidden="true">
            {l.kind === 'added' ? '+' : l.kind === 'removed' ? '−' : ' '}
          </span>
          <span className="sr-only">{l.kind === 'added' ? 'added: ' : l.kind === 'removed' ? 'removed: ' : ''}</span>
          {l.text || ' '}
        </div>
      ))}
    </pre>
  );
}
