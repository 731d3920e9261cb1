/**
 * A folder an older Quire synced lacks what GitBook's Git Sync writes beside the pages
 * (`.gitbook/includes/`, `.gitbook/vars.yaml`) and holds a page's variables under `variables:`
 * where Git Sync writes `vars:`. It catches up once: the first cycle after the update asks for
 * main's tree (one request) even when main did not move, which writes the includes and the
 * variables file and writes again, with `vars:` in place of `variables:`, the pages whose
 * variables were written the old way (the server's values, the writer's formatting: a local
 * change, nothing is pushed).
 */
import type { Mirror } from '../mirror';

const KEY = (spaceId: string) => `vars-key:${spaceId}`;

/** Whether this space's folder has not caught up yet. */
export function varsKeyToMove(mirror: Pick<Mirror, 'catalog'>, spaceId: string): boolean {
  return mirror.catalog.getMeta(KEY(spaceId)) === undefined;
}

/** A cycle pulled main's tree: the folder has caught up. */
export function markVarsKeyMoved(mirror: Pick<Mirror, 'catalog'>, spaceId: string): void {
  if (varsKeyToMove(mirror, spaceId)) mirror.catalog.setMeta(KEY(spaceId), '1');
}
