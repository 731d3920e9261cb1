import { type ClientFrame, QuireError, type ServerFrame } from '../../shared/contract';
import { Listeners, type Bridge, type ConnectionState } from './bridge';

const SECRET_KEY = 'quire.secret';

/**
 * The page is opened with `?secret=...`; keep it for this tab (reloads and
 * reconnects need it) and take it out of the address bar.
 */
function takeSecret(loc: Location = window.location, storage: Storage = window.sessionStorage): string {
  const url = new URL(loc.href);
  const fromUrl = url.searchParams.get('secret');
  if (fromUrl) {
    storage.setItem(SECRET_KEY, fromUrl);
    url.searchParams.delete('secret');
    window.history.replaceState(null, '', url.pathname + url.search + url.hash);
    return fromUrl;
  }
  return storage.getItem(SECRET_KEY) ?? '';
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const LOST_MESSAGE =
  'Lost the connection to Quire. If you stopped `quire ui`, start it again and open the new address it prints; otherwise Quire is reconnecting.';

/** The contract over the web host's WebSocket, reconnecting with backoff when it drops. */
export function createWsBridge(options: { url?: string; secret?: string } = {}): Bridge {
  const secret = options.secret ?? takeSecret();
  const base = options.url ?? `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/ws`;
  const listeners = new Listeners();
  const pending = new Map<number, Pending>();
  const queue: string[] = [];
  let nextId = 1;
  let socket: WebSocket | null = null;
  let state: ConnectionState = 'connecting';
  let retryMs = 250;

  const setState = (s: ConnectionState) => {
    if (s === state) return;
    state = s;
    listeners.emitConnection(s);
  };

  const connect = () => {
    // Without a secret in this tab (opened by hand), the HttpOnly cookie set on the first load proves it.
    const ws = new WebSocket(secret ? `${base}?secret=${encodeURIComponent(secret)}` : base);
    socket = ws;
    ws.onopen = () => {
      retryMs = 250;
      setState('open');
      for (const frame of queue.splice(0)) ws.send(frame);
    };
    ws.onmessage = (msg) => {
      const frame = JSON.parse(String(msg.data)) as ServerFrame;
      if (frame.type === 'event') listeners.emit(frame.event.name, frame.event.payload);
      else if (frame.type === 'response') {
        const p = pending.get(frame.id);
        if (!p) return;
        pending.delete(frame.id);
        if (frame.ok) p.resolve(frame.result);
        else p.reject(new QuireError(frame.error.code, frame.error.message));
      }
    };
    ws.onclose = () => {
      socket = null;
      for (const p of pending.values()) p.reject(new QuireError('disconnected', LOST_MESSAGE));
      pending.clear();
      setState('lost');
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 5000);
    };
  };
  connect();

  return {
    get connection() {
      return state;
    },
    request(name, params) {
      const id = nextId++;
      const frame = JSON.stringify({ type: 'request', id, name, params } satisfies ClientFrame);
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        if (socket && socket.readyState === WebSocket.OPEN) socket.send(frame);
        else if (state === 'lost') {
          pending.delete(id);
          reject(new QuireError('disconnected', LOST_MESSAGE));
        } else queue.push(frame);
      });
    },
    on: (name, listener) => listeners.on(name, listener),
    onConnection: (listener) => listeners.onConnection(listener),
  };
}
