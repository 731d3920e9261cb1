import { useCallback, useEffect, useState } from 'react';
import type { PageDetailVM, PageNodeVM, SpacePagesVM } from '../../shared/contract';
import { routeHash } from '../../shared/routes';
import { ErrorNotice } from '../components/ErrorNotice';
import { useOpenPath } from '../components/OpenPath';
import { RenderedHtml } from '../components/RenderedHtml';
import { Thread } from '../components/Thread';
import { useAction, useQuery } from '../hooks/use-query';
import { useRoute } from '../hooks/use-route';

type Mark = Pick<PageNodeVM, 'sync' | 'changeRequest' | 'why'>;

/** The marks a page gets: what the writer did to it and where that stands (none when it is as main has it). */
function marks(p: Mark): { key: string; text: string; className: string; title?: string }[] {
  const out: { key: string; text: string; className: string; title?: string }[] = [];
  if (p.sync === 'new') out.push({ key: 'new', text: 'new', className: 'sync-new' });
  if (p.sync === 'edited') out.push({ key: 'edited', text: 'edited', className: 'sync-edited' });
  if (p.sync === 'conflict') out.push({ key: 'conflict', text: 'conflict', className: 'sync-conflict' });
  if (p.sync === 'held') out.push({ key: 'held', text: 'held', className: 'sync-held', title: p.why ?? undefined });
  if (p.changeRequest !== null) out.push({ key: 'cr', text: `in change request #${p.changeRequest}`, className: 'sync-in-change-request' });
  return out;
}

function Marks({ page }: { page: Mark }) {
  return (
    <>
      {marks(page).map((m) => (
        <span key={m.key} className={`badge ${m.className}`} title={m.title}>
          {m.text}
        </span>
      ))}
    </>
  );
}

/** Each space's pages as the folder has them, the chosen page rendered as GitBook shows it, its problems and unresolved comments beside it. */
export function PagesView() {
  const tree = useQuery('pages.tree', {}, ['catalog', 'conflicts', 'review']);
  const { route } = useRoute();
  const named = route?.name === 'pages.open' ? { spaceId: route.spaceId, path: route.path } : null;
  // The page last named stays open when the address moves on to the plain view.
  const [open, setOpen] = useState(named);
  const key = named ? `${named.spaceId}/${named.path}` : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for `named` (a new object each render).
  useEffect(() => {
    if (named) setOpen(named);
  }, [key]);

  return (
    <section className="pages" aria-labelledby="pages-title">
      <div className="view-head">
        <h1 id="pages-title">Pages</h1>
      </div>
      <ErrorNotice error={tree.error} />
      <div className="split pages-split">
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
          <a
            href={routeHash({ name: 'pages.open', spaceId: space.spaceId, path: p.path })}
            aria-current={current ? 'page' : undefined}
            data-sync={p.sync}
            data-change-request={p.changeRequest ?? undefined}
          >
            <span className="page-title">{p.title}</span>
            <Marks page={p} />
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
  const openPath = useOpenPath();
  const { run } = action;
  const openExternal = useCallback((url: string) => void run('app.openExternal', { url }), [run]);
  return (
    <div className="page-detail">
      <ErrorNotice error={page.error ?? action.error} onDismiss={action.clearError} />
      {page.data && <Loaded page={page.data} onEdit={() => void openPath('pages.openInEditor', { spaceId, path })} onExternal={openExternal} />}
    </div>
  );
}

function Loaded({ page, onEdit, onExternal }: { page: PageDetailVM; onEdit(): void; onExternal(url: string): void }) {
  const onLink = useCallback((href: string) => /^https?:/i.test(href) && onExternal(href), [onExternal]);
  return (
    <div className="page-layout" data-testid="page-detail">
      <div className="page-main">
        <div className="page-toolbar">
          <span className="muted small page-where">
            {page.spaceTitle} · {page.path}
          </span>
          <Marks page={page} />
          {page.hidden && <span className="badge">hidden</span>}
          <button type="button" onClick={onEdit}>
            Open in editor
          </button>
        </div>
        {page.sync === 'held' && (
          <p className="notice warn" role="note" data-testid="page-held">
            Not pushed: {(page.why ?? 'Quire holds it').replace(/\.$/, '')}.
            {/* Reusable content and variables are GitBook's editor's to change: no push follows a fix. */}
            {page.path.startsWith('.gitbook/') ? '' : ' Fix the file; the next sync pushes it.'}
          </p>
        )}
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
