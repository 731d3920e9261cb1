/**
 * What a cycle pulled or pushed, page by page, for the sync log: each page with its title, its
 * file and what happened to it; the change request a push went to; for a pull, main's revision
 * and who made it where the API says so (a merge revision names the change request it merged:
 * its author and who merged it; a revision of direct edits names no one). Structured (the
 * mirror keeps it as it is); `describeActivity` is the one line every host starts from.
 */
import { LOG_LIST_LIMIT, type LogActivity, type LogChangeRequest, type LogPage, type Mirror } from '../mirror';
import type { ApplyResult } from './apply';
import type { Plan, PushOp } from './plan';
import type { PushReport } from './push';
import type { RemoteTree } from './remote';
import { plural } from '../../../shared/plural';

/** Precedence when one page went through several things in a cycle (moved and changed, say). */
const RANK: Record<LogPage['change'], number> = { conflict: 0, added: 1, deleted: 2, merged: 3, changed: 4, edited: 4, retitled: 5, moved: 6 };

class PageList {
  private readonly byKey = new Map<string, LogPage>();

  add(page: LogPage): void {
    const was = this.byKey.get(page.pageId);
    if (!was) {
      this.byKey.set(page.pageId, page);
      return;
    }
    const first = RANK[page.change] < RANK[was.change] ? page : was;
    const from = was.from ?? page.from;
    this.byKey.set(page.pageId, { ...first, path: page.path ?? was.path, title: first.title ?? page.title ?? was.title, ...(from ? { from } : {}) });
  }

  get size(): number {
    return this.byKey.size;
  }

  /** The pages in order of what happened (conflicts first), then by file; at most LOG_LIST_LIMIT. */
  listed(): { pages: LogPage[]; morePages: number } {
    const all = [...this.byKey.values()].sort((a, b) => RANK[a.change] - RANK[b.change] || (a.path ?? '').localeCompare(b.path ?? ''));
    return { pages: all.slice(0, LOG_LIST_LIMIT), morePages: Math.max(0, all.length - LOG_LIST_LIMIT) };
  }
}

function listFiles(paths: readonly string[]): { files: string[]; moreFiles: number } {
  const sorted = [...new Set(paths)].sort();
  return { files: sorted.slice(0, LOG_LIST_LIMIT), moreFiles: Math.max(0, sorted.length - LOG_LIST_LIMIT) };
}

export interface PullActivityInput {
  mirror: Pick<Mirror, 'content' | 'folder'>;
  spaceId: string;
  plan: Plan;
  applied: ApplyResult;
  /** Main now, when it moved. */
  remote: RemoteTree | null;
  /** Main's revision as last synced before this cycle. */
  previousRevision: string | null;
  /** Assets written from the server. */
  assets: readonly string[];
}

/**
 * What a cycle brought from the server, read before the cycle is recorded (a page deleted this
 * cycle is still in the folder's tree then, under its title). Null when nothing came in.
 */
export function pullActivity(input: PullActivityInput): LogActivity | null {
  const { mirror, spaceId, plan, applied, remote } = input;
  const rows = new Map(plan.folder.upsert.map((r) => [r.key, r]));
  const titleOf = (key: string): string | null =>
    rows.get(key)?.title ?? remote?.pages.get(key)?.title ?? mirror.folder.node(spaceId, key)?.title ?? mirror.content.basePage(spaceId, key)?.title ?? null;
  const list = new PageList();
  let relinked = 0;
  for (const op of plan.fileOps) {
    if (applied.failed.has(op.key)) continue;
    if (op.op === 'write' && applied.written.has(op.key)) {
      const change = op.fresh ? 'added' : op.merged ? 'merged' : 'changed';
      list.add({ pageId: op.key, title: titleOf(op.key), path: applied.written.get(op.key)!.path, change });
    } else if (op.op === 'move' && applied.moved.has(op.key)) {
      // (A move main did not ask for is not a pull: movesActivity.)
      if (!op.cause) list.add({ pageId: op.key, title: titleOf(op.key), path: op.to, change: 'moved', from: op.from });
    } else if (op.op === 'delete' && applied.deleted.has(op.key)) {
      list.add({ pageId: op.key, title: titleOf(op.key), path: null, change: 'deleted', from: op.path });
    } else if (op.op === 'relink' && applied.written.has(op.key)) relinked++;
  }
  for (const c of plan.conflicts.add)
    if (!applied.failed.has(c.pageId)) list.add({ pageId: c.pageId, title: titleOf(c.pageId), path: c.path, change: 'conflict' });
  if (list.size === 0 && input.assets.length === 0 && relinked === 0 && !remote) return null;
  const revision = remote?.revision;
  return {
    direction: 'pull',
    ...list.listed(),
    ...listFiles(input.assets),
    relinked,
    ...(revision
      ? {
          revision: {
            id: revision.id,
            ...(revision.mergedFrom ? { mergedFrom: revision.mergedFrom } : {}),
            only: input.previousRevision !== null && revision.parents.includes(input.previousRevision),
          },
        }
      : {}),
  };
}

/** Files a cycle moved without main (plan/kept-paths.ts), one entry per why: as the writer asked, or laid out anew. */
export function movesActivity(mirror: Pick<Mirror, 'folder'>, spaceId: string, plan: Plan, applied: ApplyResult): LogActivity[] {
  const out: LogActivity[] = [];
  for (const by of ['asked', 'layout'] as const) {
    const list = new PageList();
    for (const op of plan.fileOps) {
      if (op.op !== 'move' || op.cause !== by || !applied.moved.has(op.key) || applied.failed.has(op.key)) continue;
      list.add({ pageId: op.key, title: mirror.folder.node(spaceId, op.key)?.title ?? null, path: op.to, change: 'moved', from: op.from });
    }
    if (list.size > 0) out.push({ direction: 'pull', ...list.listed(), files: [], moreFiles: 0, relinked: 0, movedBy: by });
  }
  return out;
}

/**
 * What a push sent and the server applied, read once it is recorded (new pages carry the ids the
 * server gave them). Null when nothing was applied.
 */
export function pushActivity(
  mirror: Pick<Mirror, 'content' | 'folder' | 'outbox'>,
  spaceId: string,
  ops: readonly PushOp[],
  sent: PushReport,
): LogActivity | null {
  const list = new PageList();
  const idOf = (key: string) => sent.created.get(key) ?? key;
  const titleOf = (key: string): string | null =>
    mirror.folder.node(spaceId, idOf(key))?.title ?? mirror.folder.node(spaceId, key)?.title ?? mirror.content.basePage(spaceId, key)?.title ?? null;
  for (const op of ops) {
    if (op.op === 'insert' && sent.applied.has(op.key)) list.add({ pageId: idOf(op.key), title: titleOf(op.key), path: op.path, change: 'added' });
    else if (op.op === 'update' && sent.applied.has(op.id)) {
      const change = op.text !== null || op.restore ? 'edited' : op.move || op.rename ? 'moved' : op.title !== null ? 'retitled' : 'edited';
      list.add({ pageId: op.id, title: op.title ?? titleOf(op.id), path: op.path || null, change });
    } else if (op.op === 'delete' && sent.applied.has(op.id))
      list.add({ pageId: op.id, title: titleOf(op.id), path: null, change: 'deleted', ...(op.path ? { from: op.path } : {}) });
  }
  if (list.size === 0 && sent.uploaded.length === 0) return null;
  const row = mirror.outbox.changeRequest(spaceId);
  const cr = sent.changeRequest;
  const changeRequest: LogChangeRequest | undefined = cr
    ? { id: cr.id, number: cr.number, subject: row?.changeRequestId === cr.id ? (row.subject ?? null) : null }
    : undefined;
  return { direction: 'push', ...list.listed(), ...listFiles(sent.uploaded), relinked: 0, ...(changeRequest ? { changeRequest } : {}) };
}

// ---- words ------------------------------------------------------------------------------------

/** `#3 “Fix typos”`, or `#3`. */
export function describeChangeRequest(cr: Pick<LogChangeRequest, 'number' | 'subject'>): string {
  const number = cr.number === null ? 'change request' : `change request #${cr.number}`;
  return cr.subject ? `${number} “${cr.subject}”` : number;
}

/**
 * Who made main's change, where the API says: `change request #3 “Fix typos” by Sam Okafor,
 * merged by Alex Rivera`, prefixed `the latest change: ` when other revisions came in with it.
 * Null when the API names no one (direct edits, or nothing known).
 */
export function describeSource(a: LogActivity): string | null {
  const from = a.revision?.mergedFrom;
  if (!from) return null;
  const people = [from.createdBy ? `by ${from.createdBy.name}` : '', from.mergedBy ? `merged by ${from.mergedBy.name}` : ''].filter(Boolean).join(', ');
  const words = `${describeChangeRequest(from)}${people ? ` ${people}` : ''}`;
  return a.revision?.only ? words : `the latest change: ${words}`;
}

/**
 * One line for an entry: `Pulled 2 pages from main — change request #3 “Fix typos” by Sam Okafor,
 * merged by Alex Rivera`, `Pushed 1 page and 1 file to change request #4 “Edit ‘Install’”`.
 * Titles and paths are the pages' own lines; revision ids stay in the details. `source: false`
 * leaves out who made main's change (a host showing it on its own line).
 */
export function describeActivity(a: LogActivity, options: { source?: boolean } = {}): string {
  const conflicts = a.pages.filter((p) => p.change === 'conflict').length;
  const pages = a.pages.length + a.morePages - conflicts;
  const files = a.files.length + a.moreFiles;
  const what = [pages > 0 ? plural(pages, 'page') : '', files > 0 ? plural(files, 'file') : ''].filter(Boolean).join(' and ');
  if (a.direction === 'push') {
    return `Pushed ${what || 'nothing'} to ${a.changeRequest ? describeChangeRequest(a.changeRequest) : 'the change request'}`;
  }
  if (a.movedBy === 'asked') return `Moved ${what} to GitBook's path, as you asked`;
  if (a.movedBy === 'layout') return `Moved ${what} to GitBook's paths: the folder is laid out anew (Quire's naming, or what the volume holds, changed)`;
  const parts: string[] = [];
  if (what) parts.push(`Pulled ${what} from main`);
  if (conflicts > 0) parts.push(`${plural(conflicts, 'conflict')} with main (the server's version is beside the file)`);
  if (a.relinked > 0) parts.push(`links updated in ${plural(a.relinked, 'file')} (a page they link to moved)`);
  if (parts.length === 0) parts.push('Main moved on; no file here changed');
  const line = parts.join('; ');
  const source = options.source === false ? null : describeSource(a);
  return `${line[0]!.toUpperCase()}${line.slice(1)}${source ? ` — ${source}` : ''}`;
}
