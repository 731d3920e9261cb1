import { join } from 'node:path';
import { has, requireFlag, type ParsedArgs } from '../args';
import { EXIT, type CliIo } from '../io';
import type { CliContext } from '../context';
import { detectLocalChanges } from '../../../core/sync/local-changes';

export interface SpaceStatus {
  spaceId: string;
  title: string;
  folder: string | null;
  lastSyncAt: string | null;
  lastError: string | null;
  pendingEdits: { modified: string[]; added: string[]; deleted: string[] };
  conflicts: { path: string; kind: string; remotePath: string | null }[];
  openChangeRequests: number;
}

/** `quire status --dir DIR [--json]`: per space, last sync, pending edits, conflicts, open change requests. */
export async function status(args: ParsedArgs, io: CliIo, ctx: CliContext): Promise<number> {
  const dir = requireFlag(args, 'dir');
  const mirror = ctx.openMirror(dir);
  try {
    const spaces: SpaceStatus[] = [];
    for (const s of mirror.catalog.selectedSpaces()) {
      const pages = mirror.content.pages(s.id);
      const pendingEdits = s.folder ? await detectLocalChanges(join(dir, s.folder), pages) : { modified: [], added: [], deleted: [] };
      const open = mirror.db
        .prepare(`SELECT COUNT(*) AS n FROM change_requests WHERE space_id = ? AND status = 'open'`)
        .get(s.id) as { n: number };
      spaces.push({
        spaceId: s.id,
        title: s.title,
        folder: s.folder,
        lastSyncAt: s.lastSyncAt,
        lastError: s.lastError,
        pendingEdits,
        conflicts: mirror.content.conflicts(s.id).map((c) => ({ path: c.path, kind: c.kind, remotePath: c.remotePath })),
        openChangeRequests: open.n,
      });
    }
    if (has(args, 'json')) {
      io.stdout(JSON.stringify({ spaces }, null, 2));
    } else if (spaces.length === 0) {
      io.stdout(`Nothing synced in ${dir} yet. Run: quire sync --api <url> --dir ${dir} --once`);
    } else {
      for (const s of spaces) io.stdout(formatSpace(s));
    }
    return EXIT.ok;
  } finally {
    mirror.close();
  }
}

function formatSpace(s: SpaceStatus): string {
  const edits = s.pendingEdits.modified.length + s.pendingEdits.added.length + s.pendingEdits.deleted.length;
  const lines = [
    `${s.title} (${s.spaceId}) in ${s.folder ?? '(not yet pulled)'}`,
    `  last sync: ${s.lastSyncAt ?? 'never'}${s.lastError ? ` — last error: ${s.lastError}` : ''}`,
    `  pending local edits: ${edits}`,
    ...s.pendingEdits.modified.map((p) => `    modified ${p}`),
    ...s.pendingEdits.added.map((p) => `    added    ${p}`),
    ...s.pendingEdits.deleted.map((p) => `    deleted  ${p}`),
    `  conflicts: ${s.conflicts.length}`,
    ...s.conflicts.map((c) => `    ${c.path}: ${c.kind}${c.remotePath ? ` (remote version in ${c.remotePath})` : ''}`),
    `  open change requests: ${s.openChangeRequests}`,
  ];
  return lines.join('\n');
}
