import type { PreloadApi } from '../../shared/contract';
import type { Bridge } from './bridge';
import { createIpcBridge } from './ipc-bridge';
import { createWsBridge } from './ws-bridge';

export type { Bridge, ConnectionState } from './bridge';

declare global {
  interface Window {
    quire?: PreloadApi;
  }
}

/** Picks the transport the host provides; the views never know which. */
export function createBridge(): Bridge {
  return window.quire ? createIpcBridge(window.quire) : createWsBridge();
}
