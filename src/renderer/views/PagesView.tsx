import { useCallback, useEffect, useState } from 'react';
import type { PageDetailVM, PageNodeVM, SpacePagesVM } from '../../shared/contract';
import { parseRoute, routeHash } from '../../shared/routes';
import { ErrorNotice } from '../components/ErrorNotice';
import { RenderedHtml } from '../components/RenderedHtml';
import { Thread } from '../components/Thread';
import { useAction, useQuery } from '../hooks/use-query';

/** The page the address names (`#pages/<spaceId>/<path>`, the route `pages.open`). */
function pageFromHash(hash: string): { spaceId: string; path: string } | null {
  const route = parseRoute(hash);
  return route?.name === 'pages.open' ? { spaceId: route.spaceId, path: route.path } : null;
}

const SYNC_LABEL: Record<PageNodeVM['sync'], string> = { synced: '', 'pending-edit': 'edited', new: 'new', conflict: 'conflict' };

/** Each space's pages as a tree, the chosen page rendered as GitBook shows it, its problems and unresolved comments beside it. */
export function PagesView() {
  const tree = useQuery('pages.tree', {}, ['catalog', 'conflicts', 'review']);
  const [open, setOpen] = useState(() => pageFromHash(window.location.hash));

  useEffect(() => {
    const onHash = () => {
      const next = pageFromHash(window.location.hash);
      if (next) setOpen(next);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  return (
    <section className="pages" aria-labelledby="pages-title">
      <div className="view-head">
        <h1 id="pages-title">Pages</h1>
      </div>
      <ErrorNotice error={tree.error} />
      <div className="split">
        <nav className="list-pane page-tree" aria-label="Pages by space">
          {tree.data?.length === 0 && <p className="muted empty">No space is synced yet. Choose spaces in Spaces, then sync.</p>}
          {tree.data?.map((space) => (
            <SpaceTree key={space.spaceId} space={space} open={open} />
          ))}
        </nav>
        <div className="detail-pane page-pane">
          {open ? <PageDetail key={`${open.spaceId}/${open.path}`} spaceId={open.spaceId} path={open.path} /> : <p className="muted empty">Choose a page.</p>}
        </div>
      </div>
    </section>
  );
}

function SpaceTree({ space, open }: { space: SpacePagesVM; open: { spaceId: string; path: string } | null }) {
  const node = (p: PageNodeVM) => {
    const current = open?.spaceId === space.spaceId && open.path === p.path;
    return (
      <li key={p.id}>
        {p.path ? (
          <a href={routeHash({ name: 'pages.open', spaceId: space.spaceId, path: p.path })} aria-current={current ? 'page' : undefined} data-sync={p.sync}>
            {p.title}
            {p.sync !== 'synced' && <span className={`badge sync-${p.sync}`}>{SYNC_LABEL[p.sync]}</span>}
          </a>
        ) : (
          <span className={`page-${p.kind}`}>{p.title}</span>
        )}
        {p.children.length > 0 && <ul>{p.children.map(node)}</ul>}
      </li>
    );
  };
  return (
    <div className="space-tree" data-testid={`pages-${space.spaceId}`}>
      <h2>{space.title}</h2>
      <ul>{space.pages.map(node)}</ul>
    </div>
  );
}

function PageDetail({ spaceId, path }: { spaceId: string; path: string }) {
  const page = useQuery('pages.get', { spaceId, path }, ['catalog', 'conflicts', 'review']);
  const action = useAction();
  const { run } = action;
  const openExternal = useCallback((url: string) => void run('app.openExternal', { url }), [run]);
  return (
    <div className="page-detail">
      <ErrorNotice error={page.error ?? action.error} onDismiss={action.clearError} />
      {page.data && <Loaded page={page.data} onEdit={() => void action.run('pages.openInEditor', { spaceId, path })} onExternal={openExternal} />}
    </div>
  );
}

function Loaded({ page, onEdit, onExternal }: { page: PageDetailVM; onEdit(): void; onExternal(url: string): void }) {
  const onLink = useCallback((href: string) => /^https?:/i.test(href) && onExternal(href), [onExternal]);
  return (
    <div className="page-layout" data-testid="page-detail">
      <div className="page-main">
        <div className="page-toolbar">
          <span className="muted small">
            {page.spaceTitle} · {page.path}
          </span>
          {page.sync !== 'synced' && <span className={`badge sync-${page.sync}`}>{SYNC_LABEL[page.sync] || page.sync}</span>}
          {page.hidden && <span className="badge">hidden</span>}
          <button type="button" onClick={onEdit}>
            Open in editor
          </button>
        </div>
        {page.frontmatterError && (
          <p className="notice error" role="alert">
            {page.frontmatterError}
          </p>
        )}
        <article className="gb-page" aria-label={page.title}>
          <h1 className="gb-title">{page.title}</h1>
          {page.description && <p className="gb-description">{page.description}</p>}
          <RenderedHtml html={page.html} onLink={onLink} className="gb-body" />
        </article>
      </div>
      <aside className="page-side">
        <section aria-label="Problems on this page" data-testid="page-problems">
          <h2>Problems ({page.problems.length})</h2>
          {page.problems.length === 0 && <p className="muted">quire check finds nothing here.</p>}
          <ul className="page-problems">
            {page.problems.map((p, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: problems have no identity but their place; the list is rebuilt whole.
              <li key={i} className={`problem ${p.severity}`}>
                <strong>{p.severity}</strong>
                {p.line !== null && <span className="muted small"> line {p.line}</span>}
                <p>{p.message}</p>
                <p className="muted small">{p.fix}</p>
              </li>
            ))}
          </ul>
        </section>
        <section aria-label="Unresolved comments" data-testid="page-comments">
          <h2>Unresolved comments ({page.comments.length})</h2>
          {page.comments.map((c) => (
            <Thread key={c.id} thread={{ ...c, replies: [] }} compact />
          ))}
        </section>
      </aside>
    </div>
  );
}
