/**
 * Functions take the stores they use (`Pick<Mirror, 'catalog' | 'content'>`), so a reader sees
 * what a function touches and a test builds only that. The whole mirror is taken only where the
 * work spans the folder's stores — the engine's top, the review service, the hosts' sessions —
 * or where a callee still takes it; each such file is listed here, with at most that many.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(__dirname, '../..');
const WHOLE = /\bmirror\??: Mirror\b/g;

/** Files whose functions (or context types) take the whole mirror, and how many declarations may. */
const ALLOWED: Record<string, number> = {
  // The class itself (open, set aside).
  'src/main/core/mirror/index.ts': 2,
  // The engine's top and a cycle's context: every store of the folder, in transactions.
  'src/main/core/sync/engine.ts': 1,
  'src/main/core/sync/space-cycle.ts': 1,
  'src/main/core/sync/space-sync.ts': 1,
  'src/main/core/continuous/compose.ts': 1,
  // The pull's page writing, its record, history and search upkeep.
  'src/main/core/sync/apply.ts': 1,
  'src/main/core/sync/record.ts': 1,
  'src/main/core/sync/find-hooks.ts': 3,
  'src/main/core/sync/rebuild.ts': 1,
  // The review service and its refresh: every review store, the revisions and the folder.
  'src/main/core/review/index.ts': 1,
  'src/main/core/review/refresh.ts': 3,
  'src/main/core/review/diff-fetch.ts': 4,
  'src/main/core/review/anchors.ts': 4,
  'src/main/core/review/suggestion.ts': 1,
  // The hosts' sessions: they open the mirror and hand it to the core.
  'src/main/hosts/cli/commands/sync.ts': 4,
  'src/main/hosts/cli/commands/status.ts': 1,
  'src/main/hosts/cli/commands/ui.ts': 1,
  'src/main/hosts/cli/comment-apply.ts': 1,
  'src/main/hosts/cli/cr-actions.ts': 1,
  'src/main/hosts/service/review-adapter.ts': 1,
  'src/main/hosts/service/state.ts': 1,
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) ? [path] : [];
  });
}

it('takes the whole mirror only in the files that orchestrate, and no more often there', () => {
  const over = sources(join(ROOT, 'src/main')).flatMap((file) => {
    const path = relative(ROOT, file).split('\\').join('/');
    const count = readFileSync(file, 'utf8').match(WHOLE)?.length ?? 0;
    const allowed = ALLOWED[path] ?? 0;
    return count > allowed
      ? [`${path}: ${count} declaration(s) take the whole mirror (${allowed} allowed); give each the stores it uses, Pick<Mirror, 'catalog' | …>.`]
      : [];
  });
  expect(over).toEqual([]);
});
