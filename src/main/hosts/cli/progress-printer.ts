import type { SyncProgress } from '../../core/sync';
import { safeField } from './terminal-text';

/**
 * Turns progress events into occasional stderr lines: at most one every
 * `intervalMs` per space, plus the last one, so long pulls show movement
 * without flooding a terminal or a log.
 */
export function progressPrinter(write: (line: string) => void, intervalMs = 1000, now = () => Date.now()) {
  let lastAt = 0;
  let lastKey = '';
  return (p: SyncProgress) => {
    if (p.phase !== 'pull' && p.phase !== 'push') return;
    if (p.total === 0) return;
    const key = `${p.phase}:${p.spaceId}`;
    const finished = p.done === p.total;
    const t = now();
    if (!finished && key === lastKey && t - lastAt < intervalMs) return;
    if (!finished && p.done === 0 && key === lastKey) return;
    lastAt = t;
    lastKey = key;
    const verb = p.phase === 'pull' ? 'Pulling' : 'Pushing';
    write(`${verb} ${safeField(p.spaceTitle ?? p.spaceId)}: ${p.done}/${p.total} pages`);
  };
}
