/**
 * The app's address, read in one place: the view it names (`#<view>…`) and the route it holds
 * (shared/routes.ts), kept current as it changes. Views read it with `useRoute()` and move with
 * `navigate()`; nothing else listens to `hashchange` or parses the hash.
 */
import { useMemo, useSyncExternalStore } from 'react';
import { parseRoute, type Route, routeHash } from '../../shared/routes';

const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('hashchange', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('hashchange', listener);
  };
}

const snapshot = () => window.location.hash;

export interface RouteState {
  /** The whole hash, `#` included. */
  hash: string;
  /** Its first part: the view it names (App checks it is one). */
  view: string;
  /** The place inside a view it names, if any. */
  route: Route | null;
}

export function useRoute(): RouteState {
  const hash = useSyncExternalStore(subscribe, snapshot);
  return useMemo(() => ({ hash, view: viewOf(hash), route: parseRoute(hash) }), [hash]);
}

/** Sends the app to a route, or to a view (kept as it is when the address is already in that view). */
export function navigate(to: Route | { view: string }): void {
  const next = 'view' in to ? (viewOf(window.location.hash) === to.view ? window.location.hash : `#${to.view}`) : routeHash(to);
  if (window.location.hash !== next) window.location.hash = next;
  // hashchange comes a moment later; the views follow now.
  for (const listener of listeners) listener();
}

function viewOf(hash: string): string {
  return hash.replace(/^#\/?/, '').split(/[/#]/)[0] ?? '';
}
