/**
 * Which spaces a folder syncs when a command does not say: the folder remembers the choice last
 * made (`quire sync --space …`, ticking spaces in the app) or that every space is wanted
 * (`quire sync --all-spaces`, or a folder never told otherwise).
 */
import type { Mirror } from '../mirror';

const SPACE_CHOICE_META = 'sync.spaceChoice';

/** `listed`: the spaces chosen (the mirror's selection); `all`: every space the token reaches. */
export type SpaceSelection = 'all' | 'listed';

export function spaceSelection(mirror: Pick<Mirror, 'catalog'>): SpaceSelection {
  return mirror.catalog.getMeta(SPACE_CHOICE_META) === 'listed' ? 'listed' : 'all';
}

export function rememberSpaceSelection(mirror: Pick<Mirror, 'catalog'>, selection: SpaceSelection): void {
  mirror.catalog.setMeta(SPACE_CHOICE_META, selection);
}
