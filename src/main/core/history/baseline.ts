/**
 * The first version of pages synced before history was kept: the mirror already holds the
 * text each page had when it was last synced (its merge base), so that text becomes the
 * page's version 1, marked as such. Once per space; after that the sync engine records.
 */
import type { Mirror } from '../mirror';

const DONE_META = (spaceId: string) => `history.baseline.${spaceId}`;
const BASELINE_DETAIL = 'as last synced before history was kept';

/** Records the synced text of every page of the synced spaces that has no history yet; returns how many. */
export function recordSyncedBaselines(mirror: Pick<Mirror, 'catalog' | 'content' | 'history' | 'transaction'>, now = new Date().toISOString()): number {
  let recorded = 0;
  for (const space of mirror.catalog.selectedSpaces()) {
    if (mirror.catalog.getMeta(DONE_META(space.id)) !== undefined || space.lastSyncAt === null) continue;
    mirror.transaction(() => {
      for (const page of mirror.content.pages(space.id)) {
        if (page.baseContent === null || page.path === null || mirror.history.page(space.id, page.id)) continue;
        mirror.history.record({
          spaceId: space.id,
          pageId: page.id,
          path: page.path,
          title: page.title,
          text: page.baseContent,
          reason: 'pulled',
          detail: BASELINE_DETAIL,
          at: space.lastSyncAt ?? now,
        });
        recorded++;
      }
      mirror.catalog.setMeta(DONE_META(space.id), now);
    });
  }
  return recorded;
}
