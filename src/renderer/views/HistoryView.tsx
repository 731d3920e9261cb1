import { useEffect, useMemo, useState } from 'react';
import type { HistoryPageVM, PageHistoryVM, RestoreResultVM, VersionVM } from '../../shared/contract';
import type { Route } from '../../shared/routes';
import { navigate, useRoute } from '../hooks/use-route';
import { DiffView } from '../components/DiffView';
import { ErrorNotice } from '../components/ErrorNotice';
import { VirtualList } from '../components/VirtualList';
import { useAction, useQuery } from '../hooks/use-query';
import { plural, timeAgo } from '../lib/format';
import { REASON_WORDS } from '../lib/history-words';
import { localTime } from '../../shared/when';

type Selected = { spaceId: string; pageKey: string; at?: string } | null;

/** The page the address names (`#history/<spaceId>/<page key>[/<ISO time>]`). */
function selectedOf(route: Route | null): Selected {
  return route?.name === 'history.page' ? { spaceId: route.spaceId, pageKey: route.pageKey, ...(route.at ? { at: route.at } : {}) } : null;
}

const keyOf = (p: { spaceId: string; pageKey: string }) => `${p.spaceId}/${p.pageKey}`;

/** Every page Quire kept versions of (deleted ones too), a diff between any two versions, and restore. */
export function HistoryView() {
  const { route, hash } = useRoute();
  const [selected, setSelected] = useState<Selected>(() => selectedOf(route));
  const [text, setText] = useState('');
  const [deletedOnly, setDeletedOnly] = useState(false);
  const pages = useQuery('history.pages', {}, ['history']);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `hash` stands for `route` (a new object each time the address changes).
  useEffect(() => {
    const named = selectedOf(route);
    if (named) setSelected(named);
  }, [hash]);

  const shown = useMemo(() => {
    const t = text.trim().toLowerCase();
    return (pages.data ?? []).filter(
      (p) => (!deletedOnly || p.deleted) && (!t || (p.title ?? '').toLowerCase().includes(t) || (p.file ?? p.path ?? '').toLowerCase().includes(t)),
    );
  }, [pages.data, text, deletedOnly]);

  const choose = (p: HistoryPageVM) => {
    navigate({ name: 'history.page', spaceId: p.spaceId, pageKey: p.pageKey });
    setSelected({ spaceId: p.spaceId, pageKey: p.pageKey });
  };

  return (
    <section className="history" aria-labelledby="history-title">
      <div className="view-head">
        <h1 id="history-title">History</h1>
        <span className="muted small">Every version Quire pulled, pushed, merged or replaced, and pages deleted here or on the server.</span>
      </div>
      <ErrorNotice error={pages.error} />
      <div className="split history-split">
        <div className="list-pane">
          <div className="filters" role="search" aria-label="Filter pages with history">
            <input type="search" aria-label="Filter pages" placeholder="Title or file…" value={text} onChange={(e) => setText(e.target.value)} />
            <label className="small">
              <input type="checkbox" checked={deletedOnly} onChange={(e) => setDeletedOnly(e.target.checked)} /> Deleted only
            </label>
          </div>
          {pages.data && shown.length === 0 ? (
            <p className="muted empty">{pages.data.length === 0 ? 'No versions kept yet: Quire records them as it syncs.' : 'No page matches.'}</p>
          ) : (
            <VirtualList
              label="Pages with history"
              testId="history-pages"
              items={shown}
              rowHeight={60}
              getKey={(p: HistoryPageVM) => keyOf(p)}
              selectedKey={selected ? keyOf(selected) : null}
              onOpen={choose}
              renderRow={(p) => (
                <div className="row history-row">
                  <div className="row-main">
                    <span className="history-title">{p.title || '(untitled)'}</span>
                    {p.deleted && <span className="badge deleted">{p.lastReason === 'deleted-remotely' ? 'deleted on the server' : 'deleted here'}</span>}
                  </div>
                  <div className="row-meta muted small">
                    {p.file ?? p.path ?? p.pageKey} · {plural(p.versions, 'version')} · {REASON_WORDS[p.lastReason].toLowerCase()} {timeAgo(p.lastAt)}
                  </div>
                </div>
              )}
            />
          )}
        </div>
        <div className="detail-pane">
          {selected ? (
            <PageHistory key={`${keyOf(selected)}@${selected.at ?? ''}`} spaceId={selected.spaceId} pageKey={selected.pageKey} at={selected.at} />
          ) : (
            <p className="muted empty">Choose a page to see its versions. Use ↑ ↓ and Enter in the list, or search with Ctrl+K.</p>
          )}
        </div>
      </div>
    </section>
  );
}

function PageHistory({ spaceId, pageKey, at }: { spaceId: string; pageKey: string; at?: string | undefined }) {
  const history = useQuery('history.versions', { spaceId, pageKey }, ['history']);
  return (
    <article aria-label="Page history" data-testid="page-history">
      <ErrorNotice error={history.error} />
      {history.data && <Versions history={history.data} at={at} />}
    </article>
  );
}

/** The version to show first: the one recorded at `at` (or the last before it), else the newest. */
function versionAt(versions: readonly VersionVM[], at: string | undefined): number {
  const chosen = at ? (versions.find((v) => v.at === at) ?? versions.find((v) => v.at <= at)) : undefined;
  return (chosen ?? versions[0])?.number ?? 1;
}

function Versions({ history, at }: { history: PageHistoryVM; at?: string | undefined }) {
  const { page, versions } = history;
  const ref = { spaceId: page.spaceId, pageKey: page.pageKey };
  const first = versionAt(versions, at);
  const [to, setTo] = useState(first);
  const [from, setFrom] = useState(() => versions[versions.findIndex((v) => v.number === first) + 1]?.number ?? first);
  const action = useAction();
  const [restored, setRestored] = useState<RestoreResultVM | null>(null);

  const restore = async (v: VersionVM) => {
    setRestored(null);
    const result = await action.run('history.restore', { ...ref, version: v.number });
    if (result) setRestored(result);
  };

  return (
    <>
      <header className="history-head">
        <h2>
          {page.title || '(untitled)'}
          {page.deleted && <span className="badge deleted">{page.lastReason === 'deleted-remotely' ? 'deleted on the server' : 'deleted here'}</span>}
        </h2>
        <p className="muted small">
          {page.file ?? page.path ?? page.pageKey} · {page.spaceTitle} · {plural(page.versions, 'version')}
        </p>
      </header>
      <ErrorNotice error={action.error} onDismiss={action.clearError} />
      {restored && (
        <p className="notice ok" role="status">
          <span>
            {restored.outcome === 'unchanged'
              ? `${restored.file} already holds version ${restored.version}.`
              : `${restored.besideOther ? `Version ${restored.version} went to ${restored.file}: the page's own path holds another page's file now.` : `Restored version ${restored.version} into ${restored.file}.`}${restored.savedVersion ? ` Its previous text is kept as version ${restored.savedVersion}.` : ''} The next sync pushes it.`}
          </span>
        </p>
      )}
      <table className="versions">
        <caption className="sr-only">Versions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">When</th>
            <th scope="col">Why</th>
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v, i) => (
            <tr key={v.number} className={v.number === to ? 'current' : ''}>
              <td>v{v.number}</td>
              <td>
                <time dateTime={v.at} title={localTime(v.at)}>
                  {timeAgo(v.at)}
                </time>
              </td>
              <td>
                {REASON_WORDS[v.reason]}
                {v.detail && <span className="muted"> ({v.detail})</span>}
                {v.path && v.path !== page.path && <span className="muted small"> · at {v.path}</span>}
              </td>
              <td className="version-actions">
                <button
                  type="button"
                  className="link small"
                  disabled={i === versions.length - 1}
                  onClick={() => {
                    setTo(v.number);
                    setFrom(versions[i + 1]?.number ?? v.number);
                  }}
                  aria-label={`Show what version ${v.number} changed`}
                >
                  Changes
                </button>
                <button type="button" className="small" disabled={action.busy} onClick={() => void restore(v)} aria-label={`Restore version ${v.number}`}>
                  Restore
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="compare filters">
        <VersionPicker caption="From" label="Compare from version" numbers={versions.map((v) => v.number)} value={from} onChange={setFrom} />
        <VersionPicker caption="to" label="Compare to version" numbers={versions.map((v) => v.number)} value={to} onChange={setTo} />
      </div>
      <Comparison {...ref} from={from} to={to} />
    </>
  );
}

function Comparison({ spaceId, pageKey, from, to }: { spaceId: string; pageKey: string; from: number; to: number }) {
  const before = useQuery('history.text', { spaceId, pageKey, version: from }, ['history']);
  const after = useQuery('history.text', { spaceId, pageKey, version: to }, ['history']);
  const loaded = before.data?.number === from && after.data?.number === to;
  return (
    <>
      <ErrorNotice error={before.error ?? after.error} />
      {loaded && (from === to ? <p className="muted small">The same version: choose two to compare.</p> : null)}
      {loaded && <DiffView before={before.data?.text ?? ''} after={after.data?.text ?? ''} label={`Changes from version ${from} to version ${to}`} />}
    </>
  );
}

function VersionPicker(props: { caption: string; label: string; numbers: number[]; value: number; onChange: (n: number) => void }) {
  return (
    <label className="small">
      {props.caption}{' '}
      <select aria-label={props.label} value={props.value} onChange={(e) => props.onChange(Number(e.target.value))}>
        {props.numbers.map((n) => (
          <option key={n} value={n}>
            v{n}
          </option>
        ))}
      </select>
    </label>
  );
}
