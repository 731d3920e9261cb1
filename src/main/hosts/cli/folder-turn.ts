/**
 * A one-shot command's turn at the sync folder (`quire sync --once`, `quire restore`): it holds
 * the folder's lock (core/mirror) while it writes, so it never writes beside a cycle of another
 * Quire. When another Quire is syncing the folder, it says so and waits briefly; past the wait
 * it stops with FolderBusyError, which names the holder (errorMessage adds what to do; exit 1).
 */
import { describeHolder, withFolderLock } from '../../core/mirror';
import type { CliIo } from './io';

/** How long a one-shot command waits for another process syncing the folder. */
const BRIEF_WAIT_MS = 5_000;

/** Runs `fn` holding the folder's lock, waiting at most BRIEF_WAIT_MS for it. `command` is what others see holding it. */
export function withFolderTurn<T>(dir: string, command: string, io: CliIo, fn: () => Promise<T>): Promise<T> {
  return withFolderLock(
    dir,
    {
      command,
      waitMs: BRIEF_WAIT_MS,
      signal: io.signal,
      onWait: (holder) => io.stderr(`Another Quire is syncing this folder (${describeHolder(holder)}); waiting up to ${BRIEF_WAIT_MS / 1000} s for it.`),
      onNotice: io.stderr,
    },
    fn,
  );
}
