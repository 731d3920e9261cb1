/**
 * What the hosts that serve on 127.0.0.1 share (the web host and the preview): the per-launch
 * secret that guards them, checked on every request, and the server that checks it, sends the
 * common headers and listens.
 */
export {
  allowedHosts,
  appPath,
  checkDoor,
  createSecret,
  type DoorRequest,
  type DoorVerdict,
  redactSecret,
} from './guard';
export { COMMON_HEADERS, type LoopbackOptions, type LoopbackServer, send, startLoopbackServer } from './server';
