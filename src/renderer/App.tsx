import { useCallback, useEffect, useRef, useState } from 'react';
import type { SessionVM, SyncStatusVM } from '../shared/contract';
import type { Route } from '../shared/routes';
import type { Bridge, ConnectionState } from './bridge';
import { BridgeProvider, useBridge } from './hooks/bridge-context';
import { useEventState } from './hooks/use-query';
import { navigate, useRoute } from './hooks/use-route';
import { OpenPathProvider } from './components/OpenPath';
import { StateBanner } from './components/StateBanner';
import { SignInView } from './views/SignInView';
import { StatusBar } from './components/StatusBar';
import { Nav, VIEWS, type ViewId } from './components/Nav';
import { SpacesView } from './views/SpacesView';
import { ConflictsView } from './views/ConflictsView';
import { ReviewView } from './views/ReviewView';
import { LogView } from './views/LogView';
import { SitesView } from './views/SitesView';
import { PagesView } from './views/PagesView';
import { HistoryView } from './views/HistoryView';
import { SearchDialog } from './components/SearchDialog';

export function App({ bridge }: { bridge: Bridge }) {
  return (
    <BridgeProvider bridge={bridge}>
      <Shell />
    </BridgeProvider>
  );
}

const isView = (id: string): id is ViewId => VIEWS.some((v) => v.id === id);

function useConnection(): ConnectionState {
  const bridge = useBridge();
  const [state, setState] = useState(bridge.connection);
  useEffect(() => {
    const off = bridge.onConnection(setState);
    setState(bridge.connection); // it may have changed between render and subscription
    return off;
  }, [bridge]);
  return state;
}

function Shell() {
  const session = useEventState('session.changed', 'session.get', {}) as SessionVM | undefined;
  const status = useEventState('sync.status', 'sync.status', {}) as SyncStatusVM | undefined;
  const connection = useConnection();
  const { view: named } = useRoute();
  const view: ViewId = isView(named) ? named : 'spaces';
  const [searching, setSearching] = useState(false);
  const focusBeforeSearch = useRef<Element | null>(null);

  const go = useCallback((id: ViewId) => navigate({ view: id }), []);

  // `pages.opened`, the host's answer to a `pages.open` request, shows that page here.
  const bridge = useBridge();
  useEffect(() => bridge.on('pages.opened', ({ spaceId, path }) => navigate({ name: 'pages.open', spaceId, path })), [bridge]);

  /** Sends the app to a route (see shared/routes.ts); the view it names reads the rest of it. */
  const openRoute = useCallback((route: Route) => {
    navigate(route);
    document.getElementById('main')?.focus();
  }, []);

  const openSearch = useCallback(() => {
    focusBeforeSearch.current = document.activeElement;
    setSearching(true);
  }, []);
  const closeSearch = useCallback(() => {
    setSearching(false);
    const before = focusBeforeSearch.current;
    if (before instanceof HTMLElement && before.isConnected) before.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        openSearch();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [openSearch]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey) return;
      const index = Number(e.key) - 1;
      const target = VIEWS[index];
      if (target) {
        e.preventDefault();
        go(target.id);
        document.getElementById('main')?.focus();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);

  const banner =
    connection === 'lost' ? (
      <div className="notice error banner" role="alert">
        Lost the connection to Quire. Reconnecting… If you stopped it, start Quire again and open the new address it prints.
      </div>
    ) : null;

  if (!session) {
    return (
      <div className="app loading" aria-busy="true">
        {banner}
        <p className="muted center">Connecting to Quire…</p>
      </div>
    );
  }
  if (!session.signedIn) {
    return (
      <div className="app">
        {banner}
        <SignInView session={session} />
      </div>
    );
  }
  return (
    <OpenPathProvider>
      <div className="app shell">
        <a className="skip" href="#main">
          Skip to content
        </a>
        {banner}
        <StatusBar status={status} session={session} />
        <StateBanner status={status} />
        <div className="body">
          <Nav current={view} onSelect={go} onSearch={openSearch} conflicts={status?.conflicts ?? 0} pending={status?.pendingActions ?? 0} />
          <main id="main" tabIndex={-1} className="view" aria-label={VIEWS.find((v) => v.id === view)?.label}>
            {view === 'spaces' && <SpacesView status={status} />}
            {view === 'conflicts' && <ConflictsView />}
            {view === 'review' && <ReviewView />}
            {view === 'log' && <LogView />}
            {view === 'sites' && <SitesView />}
            {view === 'pages' && <PagesView />}
            {view === 'history' && <HistoryView />}
          </main>
        </div>
        {searching && <SearchDialog onClose={closeSearch} onOpen={openRoute} />}
      </div>
    </OpenPathProvider>
  );
}
