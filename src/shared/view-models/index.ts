/**
 * The view models of the contract (contract.ts): what each request returns and each event
 * carries, shaped for the views, one file per view. Plain data, so they cross IPC and the
 * WebSocket as JSON.
 */
export type { SyncStateName } from '../sync-state';
export * from './session';
export * from './sync';
export * from './log';
export * from './comments';
export * from './review';
export * from './sites';
export * from './pages';
export * from './search';
export * from './history';
