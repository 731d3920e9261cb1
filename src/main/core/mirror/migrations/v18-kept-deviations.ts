import type { Migration } from './migration';

/** Triggers that forget a space's kept deviations when main's tree or the folder's changes. */
const forgetOn = (table: string, columns: string[]): string => {
  const changed = columns.map((c) => `OLD.${c} IS NOT NEW.${c}`).join(' OR ');
  return `
    CREATE TRIGGER ${table}_forget_deviations_insert AFTER INSERT ON ${table}
      BEGIN DELETE FROM path_deviations WHERE space_id = NEW.space_id; END;
    CREATE TRIGGER ${table}_forget_deviations_delete AFTER DELETE ON ${table}
      BEGIN DELETE FROM path_deviations WHERE space_id = OLD.space_id; END;
    CREATE TRIGGER ${table}_forget_deviations_update AFTER UPDATE OF space_id, ${columns.join(', ')} ON ${table}
      WHEN OLD.space_id IS NOT NEW.space_id OR ${changed}
      BEGIN DELETE FROM path_deviations WHERE space_id IN (OLD.space_id, NEW.space_id); END;`;
};

export const keptDeviations: Migration = {
  version: 18,
  name: 'path deviations kept until what they are worked out from changes',
  sql: `
    -- Where the folder's paths differ from GitBook's (core/sync/deviations.ts), as worked out
    -- under the name rules and with the pages waiting to be pushed recorded beside them. The
    -- triggers below delete a space's row as soon as main's tree or the folder's tree changes in
    -- the mirror, whoever writes it, so a row that is there is current: \`quire status\` reads it
    -- instead of comparing the two trees. Which pages wait is compared when it is read (a push
    -- sets and clears it within one cycle, which must not cost the work of a new row).
    CREATE TABLE path_deviations (
      space_id TEXT PRIMARY KEY,
      rules TEXT NOT NULL,
      pending TEXT NOT NULL,
      deviations TEXT NOT NULL
    );
    DELETE FROM meta WHERE key LIKE 'path-deviations:%';
    ${forgetOn('pages', ['id', 'parent_id', 'position', 'type', 'title', 'slug', 'meta'])}
    ${forgetOn('folder_nodes', ['key', 'name', 'path', 'folder', 'placed_locally'])}
  `,
};
