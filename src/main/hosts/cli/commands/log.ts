import { CorruptMirrorError, isCorruptionError, type LogActivity, type LogEntry, type LogPage } from '../../../core/mirror';
import { describeActivity } from '../../../core/sync';
import { plural } from '../../../../shared/plural';
import { countFlag, dirFlag, has, type ParsedArgs, spaceFlags } from '../args';
import type { CliContext } from '../context';
import { EXIT, type CliIo } from '../io';
import { safeField } from '../terminal-text';
import { when } from '../../../../shared/when';

export interface LogJson {
  entries: {
    seq: number;
    at: string;
    spaceId: string | null;
    spaceTitle: string | null;
    /** The space's folder in the sync folder: pages' paths are relative to it. */
    folder: string | null;
    kind: LogEntry['kind'];
    message: string;
    /** What a pull or a push did, page by page (null for other entries). */
    activity: LogActivity | null;
  }[];
}

/**
 * `quire log --dir <folder> [--space <spaceId>] [--limit <n>] [--json]`: what each sync did,
 * newest first — the pages and files each pull and push carried (title and file), the change
 * request a push went to, who made main's change where the API says. Offline, read-only.
 */
export async function log(args: ParsedArgs, io: CliIo, ctx: Pick<CliContext, 'openMirror'>): Promise<number> {
  const dir = dirFlag(args);
  const [spaceId] = spaceFlags(args);
  const limit = countFlag(args, 'limit', { min: 1, max: 1000, unit: 'entries', example: 20 }) ?? 20;
  const mirror = ctx.openMirror(dir);
  try {
    const entries = mirror.log.recent(limit, undefined, spaceId ? { spaceId } : {});
    const folders = new Map<string, { title: string; folder: string | null }>();
    const spaceOf = (id: string | null) => {
      if (id === null) return null;
      let known = folders.get(id);
      if (!known) {
        const s = mirror.catalog.space(id);
        known = { title: s?.title ?? id, folder: s?.folder ?? null };
        folders.set(id, known);
      }
      return known;
    };
    if (has(args, 'json')) {
      const json: LogJson = {
        entries: entries.map((e) => ({
          seq: e.seq,
          at: e.at,
          spaceId: e.spaceId,
          spaceTitle: spaceOf(e.spaceId)?.title ?? null,
          folder: spaceOf(e.spaceId)?.folder ?? null,
          kind: e.kind,
          message: e.activity ? describeActivity(e.activity) : e.message,
          activity: e.activity,
        })),
      };
      io.stdout(JSON.stringify(json, null, 2));
      return EXIT.ok;
    }
    io.stdout(formatLog(entries, spaceOf, spaceId));
    return EXIT.ok;
  } catch (err) {
    // Read-only: damage is reported, and left for the next sync to set aside.
    if (isCorruptionError(err)) throw new CorruptMirrorError(dir, err);
    throw err;
  } finally {
    mirror.close();
  }
}

/** `2026-11-24 09:04` in UTC: stable, sortable, unambiguous. */

const CHANGE_WORDS: Record<LogPage['change'], string> = {
  added: 'added',
  changed: 'changed',
  merged: 'merged',
  moved: 'moved',
  deleted: 'deleted',
  conflict: 'conflict',
  edited: 'edited',
  retitled: 'retitled',
};

function formatLog(entries: LogEntry[], spaceOf: (id: string | null) => { title: string; folder: string | null } | null, space: string | undefined): string {
  if (entries.length === 0) return space ? `Nothing logged for space ${space} yet.` : 'Nothing logged in this folder yet: run `quire sync`.';
  const lines: string[] = [];
  for (const e of entries) {
    const s = spaceOf(e.spaceId);
    const where = s ? `  ${safeField(s.title)}` : '';
    if (!e.activity) {
      lines.push(`${when(e.at)}${where}  ${e.kind}: ${safeField(e.message)}`);
      continue;
    }
    lines.push(`${when(e.at)}${where}  ${safeField(describeActivity(e.activity))}`);
    const file = (path: string) => safeField(s?.folder ? `${s.folder}/${path}` : path);
    for (const p of e.activity.pages) {
      const path = p.path ?? p.from ?? null;
      const title = p.title !== null ? ` — ${safeField(p.title)}` : '';
      const from = p.change === 'moved' && p.from ? ` (was ${file(p.from)})` : '';
      lines.push(`    ${CHANGE_WORDS[p.change].padEnd(9)} ${path !== null ? file(path) : safeField(p.pageId)}${title}${from}`);
    }
    if (e.activity.morePages > 0) lines.push(`    and ${plural(e.activity.morePages, 'more page')}`);
    for (const f of e.activity.files) lines.push(`    ${'file'.padEnd(9)} ${file(f)}`);
    if (e.activity.moreFiles > 0) lines.push(`    and ${plural(e.activity.moreFiles, 'more file')}`);
  }
  return lines.join('\n');
}
