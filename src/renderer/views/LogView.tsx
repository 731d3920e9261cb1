import { useMemo, useState } from 'react';
import { LOG_KINDS, type LogKind } from '../../shared/contract';
import { useQuery } from '../hooks/use-query';
import { ErrorNotice } from '../components/ErrorNotice';
import { VirtualList } from '../components/VirtualList';

/** What each sync cycle did, newest first, so a user can see why a file changed. */
export function LogView() {
  const [kind, setKind] = useState<LogKind | ''>('');
  const [spaceId, setSpaceId] = useState('');
  const [text, setText] = useState('');
  const log = useQuery('log.list', { ...(kind ? { kind } : {}), limit: 2000 }, ['log']);
  const entries = log.data ?? [];
  const spaces = useMemo(() => {
    const m = new Map<string, string>();
    for (const e of entries) if (e.spaceId) m.set(e.spaceId, e.spaceTitle ?? e.spaceId);
    return [...m];
  }, [entries]);
  const shown = useMemo(() => {
    const t = text.trim().toLowerCase();
    return entries.filter((e) => (!spaceId || e.spaceId === spaceId) && (!t || e.message.toLowerCase().includes(t)));
  }, [entries, spaceId, text]);

  return (
    <section className="log" aria-labelledby="log-title">
      <div className="view-head">
        <h1 id="log-title">Sync log</h1>
      </div>
      <div className="filters" role="search" aria-label="Filter the sync log">
        <select aria-label="Kind" value={kind} onChange={(e) => setKind(e.target.value as LogKind | '')}>
          <option value="">Everything</option>
          {LOG_KINDS.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
        <select aria-label="Space" value={spaceId} onChange={(e) => setSpaceId(e.target.value)}>
          <option value="">All spaces</option>
          {spaces.map(([id, title]) => (
            <option key={id} value={id}>
              {title}
            </option>
          ))}
        </select>
        <input type="search" aria-label="Search the log" placeholder="Search…" value={text} onChange={(e) => setText(e.target.value)} />
        <span className="muted small">{shown.length} entries</span>
      </div>
      <ErrorNotice error={log.error} />
      {log.data && shown.length === 0 ? (
        <p className="muted empty">Nothing logged{kind || spaceId || text ? ' for these filters' : ' yet: run a sync'}.</p>
      ) : (
        <VirtualList
          label="Sync log entries"
          testId="log-list"
          items={shown}
          rowHeight={40}
          getKey={(e) => String(e.seq)}
          renderRow={(e) => (
            <div className="row log-row">
              <time className="muted small" dateTime={e.at}>
                {new Date(e.at).toLocaleString()}
              </time>
              <span className={`badge kind ${e.kind}`}>{e.kind}</span>
              {e.spaceTitle && <span className="muted small">{e.spaceTitle}</span>}
              <span className="log-message">{e.message}</span>
            </div>
          )}
        />
      )}
    </section>
  );
}
