import { useMemo, useState } from 'react';
import { LOG_KINDS, type LogEntryVM, type LogKind, type LogPageChange, type LogPageVM } from '../../shared/contract';
import { useAction, useQuery } from '../hooks/use-query';
import { navigate } from '../hooks/use-route';
import { plural, timeAgo } from '../lib/format';
import { localTime } from '../../shared/when';
import { ErrorNotice } from '../components/ErrorNotice';
import { VirtualList } from '../components/VirtualList';
import { logEntryText } from '../../shared/log-search';

const CHANGE_WORDS: Record<LogPageChange, string> = {
  added: 'added',
  changed: 'changed',
  merged: 'merged with your edits',
  moved: 'moved',
  deleted: 'deleted',
  conflict: 'conflict',
  edited: 'edited',
  retitled: 'retitled',
};

/**
 * What each sync cycle did, newest first, so a user can see why a file changed: each pull and push
 * with its pages (title and file), the change request it went to and who made main's change where
 * the API says; each page opens in the Pages view, or its changes and history in the History view.
 */
export function LogView() {
  const [kind, setKind] = useState<LogKind | ''>('');
  const [spaceId, setSpaceId] = useState('');
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<number | null>(null);
  const log = useQuery('log.list', { ...(kind ? { kind } : {}), limit: 2000 }, ['log']);
  const entries = log.data ?? [];
  const spaces = useMemo(() => {
    const m = new Map<string, string>();
    for (const e of entries) if (e.spaceId) m.set(e.spaceId, e.spaceTitle ?? e.spaceId);
    return [...m];
  }, [entries]);
  const shown = useMemo(() => {
    const t = text.trim().toLowerCase();
    return entries.filter((e) => (!spaceId || e.spaceId === spaceId) && (!t || logEntryText(e).includes(t)));
  }, [entries, spaceId, text]);
  // The newest entry until one is chosen.
  const current = shown.find((e) => e.seq === selected) ?? shown[0] ?? null;

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
        <input type="search" aria-label="Search the log" placeholder="Search, a page or a file too…" value={text} onChange={(e) => setText(e.target.value)} />
        <span className="muted small">{plural(shown.length, 'entry', 'entries')}</span>
      </div>
      <ErrorNotice error={log.error} />
      {log.data && shown.length === 0 ? (
        <p className="muted empty">Nothing logged{kind || spaceId || text ? ' for these filters' : ' yet: run a sync'}.</p>
      ) : (
        <div className="split log-split">
          <div className="list-pane">
            <VirtualList
              label="Sync log entries"
              testId="log-list"
              items={shown}
              rowHeight={40}
              getKey={(e) => String(e.seq)}
              selectedKey={current ? String(current.seq) : null}
              onOpen={(e) => setSelected(e.seq)}
              renderRow={(e) => (
                <div className="row log-row">
                  <time className="muted small" dateTime={e.at} title={localTime(e.at)}>
                    {timeAgo(e.at)}
                  </time>
                  <span className={`badge kind ${e.kind}`}>{e.kind}</span>
                  {e.spaceTitle && <span className="muted small">{e.spaceTitle}</span>}
                  <span className="log-message">{e.message}</span>
                </div>
              )}
            />
          </div>
          <div className="detail-pane" data-testid="log-detail">
            {current ? (
              <EntryDetail entry={current} />
            ) : (
              <p className="muted empty">Choose an entry to see the pages and files it carried. Use ↑ ↓ and Enter in the list.</p>
            )}
          </div>
        </div>
      )}
    </section>
  );
}

function EntryDetail({ entry }: { entry: LogEntryVM }) {
  const a = entry.activity;
  return (
    <article aria-label="Log entry" className="log-entry">
      <header className="detail-head">
        <h2>{a?.summary ?? entry.message}</h2>
        <p className="muted small">
          <time dateTime={entry.at} title={localTime(entry.at)}>
            {timeAgo(entry.at)}
          </time>
          {entry.spaceTitle && ` · ${entry.spaceTitle}`}
        </p>
      </header>
      {a?.source && <p className="small">Main’s change came from {a.source.words}.</p>}
      {a && a.pages.length > 0 && (
        <ul className="log-pages" aria-label="Pages">
          {a.pages.map((p) => (
            <PageLine key={`${p.pageId}:${p.change}`} entry={entry} page={p} />
          ))}
        </ul>
      )}
      {a && a.morePages > 0 && <p className="muted small">and {plural(a.morePages, 'more page')}</p>}
      {a && a.files.length > 0 && (
        <ul className="log-files" aria-label="Files">
          {a.files.map((f) => (
            <li key={f}>
              <code>{f}</code>
            </li>
          ))}
          {a.moreFiles > 0 && <li className="muted small">and {plural(a.moreFiles, 'more file')}</li>}
        </ul>
      )}
      {!a && <p className="log-text">{entry.message}</p>}
      <details className="small muted">
        <summary>Details</summary>
        <dl className="log-details">
          <dt>Entry</dt>
          <dd>{entry.seq}</dd>
          <dt>Time</dt>
          <dd>{entry.at}</dd>
          {entry.spaceId && (
            <>
              <dt>Space</dt>
              <dd>{entry.spaceId}</dd>
            </>
          )}
          {a?.revision && (
            <>
              <dt>Main’s revision</dt>
              <dd>
                <code>{a.revision}</code>
              </dd>
            </>
          )}
          {a?.changeRequest && (
            <>
              <dt>Change request</dt>
              <dd>
                <code>{a.changeRequest.id}</code>
              </dd>
            </>
          )}
        </dl>
      </details>
    </article>
  );
}

function PageLine({ entry, page }: { entry: LogEntryVM; page: LogPageVM }) {
  const action = useAction();
  const spaceId = entry.spaceId;
  const title = page.title || page.path || page.from || '(untitled)';
  const file = page.path ?? page.from ?? null;
  const history = (at?: string) => {
    if (spaceId) navigate({ name: 'history.page', spaceId, pageKey: page.pageId, ...(at ? { at } : {}) });
  };
  const canOpen = spaceId !== null && page.change !== 'deleted' && page.path !== null && !page.pageId.startsWith('new:');
  return (
    <li className="log-page">
      <span className={`badge change ${page.change}`}>{CHANGE_WORDS[page.change]}</span>
      <span className="log-page-title">{title}</span>
      {file && <code className="muted small">{file}</code>}
      {page.change === 'moved' && page.from && <span className="muted small">from {page.from}</span>}
      <span className="log-page-actions">
        {canOpen && (
          <button
            type="button"
            className="link small"
            onClick={() => void action.run('pages.open', { spaceId, pageId: page.pageId })}
            aria-label={`Open ${title}`}
          >
            Open
          </button>
        )}
        {spaceId && page.change !== 'deleted' && (
          <button type="button" className="link small" onClick={() => history(entry.at)} aria-label={`What this changed in ${title}`}>
            Changes
          </button>
        )}
        {spaceId && (
          <button type="button" className="link small" onClick={() => history()} aria-label={`History of ${title}`}>
            History
          </button>
        )}
      </span>
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
    </li>
  );
}
