import { type ClientFrame, QuireError, type ServerFrame } from '../../shared/contract';
import { Listeners, type Bridge, type ConnectionState } from './bridge';

/**
 * The web host serves the app under its secret path (`/s/<secret>/`) and its socket beside
 * it, so the socket's address is the page's, relative: the secret is never copied anywhere.
 */
function socketUrl(loc: Location = window.location): string {
  const url = new URL('ws', loc.href);
  url.protocol = loc.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = '';
  url.hash = '';
  return url.href;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

const LOST_MESSAGE =
  'Lost the connection to Quire. If you stopped `quire ui`, start it again and open the new address it prints; otherwise Quire is reconnecting.';

/** The contract over the web host's WebSocket, reconnecting with backoff when it drops. */
export function createWsBridge(options: { url?: string } = {}): Bridge {
  const address = options.url ?? socketUrl();
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
    const ws = new WebSocket(address);
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
