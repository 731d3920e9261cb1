import { planLayout } from '../naming';

/**
 * Picks the folder of a space inside the sync folder: its title made a safe
 * name by the same rules as page folders, or `<name>-<spaceId>` when another
 * space already uses that name (compared case-insensitively, for macOS and
 * Windows). Once chosen a folder is kept, even if the space is renamed, so
 * editors never lose the files they have open.
 */
export function chooseSpaceFolder(title: string, spaceId: string, used: Set<string>): string {
  const safeName = (text: string) => planLayout([{ id: spaceId, title: text, type: 'group', pages: [] }]).pages.get(spaceId)?.name ?? `space-${spaceId}`;
  const base = safeName(title);
  if (!used.has(base.toLowerCase())) return base;
  return safeName(`${base}-${spaceId}`);
}
