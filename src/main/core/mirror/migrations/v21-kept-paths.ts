import type { Migration } from './migration';

export const keptPaths: Migration = {
  version: 21,
  name: 'page files kept where the writer put them',
  sql: `
    -- A node whose file stays where the writer put it (core/sync/plan/paths.ts): the layout
    -- moves it only when main moves or renames the page, or the writer asks.
    ALTER TABLE folder_nodes ADD COLUMN path_kept INTEGER NOT NULL DEFAULT 0;
    -- Kept paths are path deviations (core/sync/deviations.ts): a change forgets them, as migration 18's triggers do.
    DROP TRIGGER folder_nodes_forget_deviations_update;
    CREATE TRIGGER folder_nodes_forget_deviations_update AFTER UPDATE OF space_id, key, name, path, folder, placed_locally, path_kept ON folder_nodes
      WHEN OLD.space_id IS NOT NEW.space_id OR OLD.key IS NOT NEW.key OR OLD.name IS NOT NEW.name OR OLD.path IS NOT NEW.path
        OR OLD.folder IS NOT NEW.folder OR OLD.placed_locally IS NOT NEW.placed_locally OR OLD.path_kept IS NOT NEW.path_kept
      BEGIN DELETE FROM path_deviations WHERE space_id IN (OLD.space_id, NEW.space_id); END;
  `,
};
