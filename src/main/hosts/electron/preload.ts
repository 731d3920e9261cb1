/**
 * The only bridge between the sandboxed page and main: the typed contract on
 * `window.quire`, one `quire:` channel per request and one for pushed events.
 * Nothing else of Electron or Node is exposed. Built as CommonJS (sandbox).
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { IPC_EVENT_CHANNEL, ipcChannel, isRequestName, type PreloadApi, type PushedEvent } from '../../../shared/contract';

const api: PreloadApi = {
  request(name, params) {
    if (!isRequestName(name)) {
      return Promise.resolve({ ok: false, error: { code: 'invalid-request', message: `Unknown request ${String(name)}.` } });
    }
    return ipcRenderer.invoke(ipcChannel(name), params);
  },
  onEvent(listener) {
    const handler = (_e: IpcRendererEvent, event: PushedEvent) => listener(event);
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
};

contextBridge.exposeInMainWorld('quire', Object.freeze(api));
