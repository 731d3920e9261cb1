/**
 * Continuous sync composed once for every host: the engine, the scheduler, the folder's lock,
 * review on its cadence, checkouts followed, the mirror's recovery; the host gives its words.
 * Hosts import it from here only.
 */
export { type Connection, type ContinuousOptions, type ContinuousWords, continuousSync, type SyncFailure } from './compose';
