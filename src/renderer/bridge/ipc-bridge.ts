import { QuireError, type PreloadApi } from '../../shared/contract';
import { Listeners, type Bridge } from './bridge';

/** The contract over the Electron preload's `window.quire`. */
export function createIpcBridge(api: PreloadApi): Bridge {
  const listeners = new Listeners();
  api.onEvent((event) => listeners.emit(event.name, event.payload));
  return {
    connection: 'open',
    async request(name, params) {
      const outcome = await api.request(name, params);
      if (!outcome.ok) throw new QuireError(outcome.error.code, outcome.error.message);
      return outcome.result as never;
    },
    on: (name, listener) => listeners.on(name, listener),
    onConnection: (listener) => listeners.onConnection(listener),
  };
}
