import { useEffect, useState } from 'react';
import type { ConflictVM } from '../../shared/contract';
import { useAction, useQuery } from '../hooks/use-query';
import { ErrorNotice } from '../components/ErrorNotice';
import { useOpenPath } from '../components/OpenPath';
import { timeAgo } from '../lib/format';
import { lineDiff } from '../lib/line-diff';

const keyOf = (c: ConflictVM) => `${c.spaceId}/${c.path}`;

/** Each clash side by side (yours, the common base, theirs), resolved through the core. */
export function ConflictsView() {
  const conflicts = useQuery('conflicts.list', {}, ['conflicts']);
  const [selected, setSelected] = useState<string | null>(null);
  const list = conflicts.data ?? [];
  const current = list.find((c) => keyOf(c) === selected) ?? list[0];

  useEffect(() => {
    if (selected && !list.some((c) => keyOf(c) === selected)) setSelected(null);
  }, [list, selected]);

  return (
    <section className="conflicts" aria-labelledby="conflicts-title">
      <div className="view-head">
        <h1 id="conflicts-title">Conflicts</h1>
      </div>
      <ErrorNotice error={conflicts.error} />
      {conflicts.data && list.length === 0 && (
        <p className="muted empty" data-testid="no-conflicts">
          No conflicts. When a page changes here and on the server in the same lines, it shows up here.
        </p>
      )}
      {list.length > 0 && (
        <div className="split">
          <ul className="conflict-list" aria-label="Conflicting files">
            {list.map((c) => (
              <li key={keyOf(c)}>
                <button
                  type="button"
                  className={current && keyOf(current) === keyOf(c) ? 'current' : ''}
                  aria-current={current && keyOf(current) === keyOf(c) ? 'true' : undefined}
                  onClick={() => setSelected(keyOf(c))}
                >
                  <span className="conflict-path">{c.path}</span>
                  <span className="muted small">
                    {c.spaceTitle} · {timeAgo(c.detectedAt)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
          {current && <ConflictDetail key={keyOf(current)} conflict={current} />}
        </div>
      )}
    </section>
  );
}

function Side({ title, text, base, testId }: { title: string; text: string | null; base: string | null; testId: string }) {
  const lines = text === null ? null : base === null ? text.split('\n').map((t) => ({ kind: 'same' as const, text: t })) : lineDiff(base, text);
  return (
    <div className="side" data-testid={testId}>
      <h3>{title}</h3>
      {lines === null ? (
        <p className="muted">Deleted on this side.</p>
      ) : (
        <pre>
          {lines
            .filter((l) => l.kind !== 'removed')
            .map((l, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a diff line has no identity but its place; the list is rebuilt whole.
              <div key={i} className={`diff-line ${l.kind}`}>
                {l.text || ' '}
              </div>
            ))}
        </pre>
      )}
    </div>
  );
}

function ConflictDetail({ conflict }: { conflict: ConflictVM }) {
  const action = useAction();
  const openPath = useOpenPath();
  const ref = { spaceId: conflict.spaceId, path: conflict.path };
  return (
    <article className="conflict-detail" aria-label={`Conflict in ${conflict.path}`}>
      <header className="detail-head">
        <h2>{conflict.path}</h2>
        <p className="muted small">
          {conflict.spaceTitle} · {conflict.kind === 'edit' ? 'changed here and on the server' : conflict.kind}
        </p>
        <div className="actions">
          <button type="button" className="primary" disabled={action.busy} onClick={() => void action.run('conflicts.resolve', { ...ref, choice: 'mine' })}>
            Keep mine
          </button>
          <button type="button" disabled={action.busy} onClick={() => void action.run('conflicts.resolve', { ...ref, choice: 'theirs' })}>
            Take theirs
          </button>
          <button type="button" className="secondary" onClick={() => void openPath('conflicts.openInEditor', ref)}>
            Open in editor
          </button>
        </div>
        <p className="muted small">
          Or edit the file yourself, then delete <code>{conflict.path.replace(/\.md$/i, '')}.remote.md</code>: Quire treats that as resolved.
        </p>
      </header>
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
      <div className="three-way">
        <Side title="Mine (this computer)" text={conflict.local} base={conflict.base} testId="side-local" />
        <Side title="Base (last synced)" text={conflict.base} base={null} testId="side-base" />
        <Side title="Theirs (server)" text={conflict.remote} base={conflict.base} testId="side-remote" />
      </div>
    </article>
  );
}
