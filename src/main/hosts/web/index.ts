/** The web host: the app in a browser on 127.0.0.1, the contract over a WebSocket guarded by a per-launch secret. */
export { startWebHost, type WebHost } from './server';
