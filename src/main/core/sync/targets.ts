/**
 * A writer's change requests by topic: which change request a space's pushes go to.
 *
 * - Quire's own: the first push opens one, with a subject saying what it holds ("Add ‘My new
 *   page’, edit ‘Install’ (+2 more)"), kept up to date as it grows — until the user sets a subject
 *   (here or on GitBook): a subject the user set is never replaced.
 * - `quire cr new` starts a new one (with the user's subject, created at once when the API
 *   answers, else by the next push); `quire cr use <n>` points the pushes at another open
 *   change request of the user's. The one set aside keeps what it holds, so going back to it
 *   later picks up where it was.
 * - Once Quire's own change request went to review (reviewers asked, a review given, or moved
 *   from draft to open), a push bringing a new topic (a page it does not hold yet) opens a new
 *   one instead, and the log says so; edits to the pages it holds still go into it. A change
 *   request the user chose keeps every push.
 * - A page created in a change request set aside exists only there: its edits are held (said in
 *   `quire status`) until that change request is merged or chosen again, rather than pushed as
 *   a second page.
 */
import type { ChangeRequest } from '@gitbook/api';
import type { ApiClient } from '../api';
import type { Mirror, PushedPageRow } from '../mirror';
import { changeRequestSubject, type SubjectItem, titleOfPath } from './change-request';
import { pushStoreOf } from './outbox';
import { surelyNotApplied } from './request-state';
import type { Held, PushOp } from './plan';
import { pageTitleOf } from '../content';
import { oneLineSubject, subjectProblem } from '../../../shared/subject';

/** Which change request receives a space's edits (the hosts' view, SpaceTargetVM, adds the space's title). */
export interface ChangeRequestTarget {
  spaceId: string;
  /** none: the next push opens one; new: the next push opens the one asked for; open: `number` receives them. */
  state: 'none' | 'new' | 'creating' | 'open';
  changeRequestId: string | null;
  number: number | null;
  subject: string | null;
  /** The user chose it (new / use). */
  chosen: boolean;
  subjectByUser: boolean;
  pages: number;
  /** Change requests the space's pushes went to before, still open. */
  setAside: { changeRequestId: string; number: number | null; subject: string; pages: number }[];
}

export function changeRequestTarget(mirror: Pick<Mirror, 'outbox' | 'reviewRecords'>, spaceId: string): ChangeRequestTarget {
  const store = pushStoreOf(mirror);
  const row = store.changeRequest(spaceId);
  return {
    spaceId,
    state: row ? row.state : 'none',
    changeRequestId: row?.changeRequestId ?? null,
    number: row?.number ?? null,
    subject: row && (row.subject !== '' || row.subjectByUser) ? row.subject : null,
    chosen: row?.chosen ?? false,
    subjectByUser: row?.subjectByUser ?? false,
    pages: row?.changeRequestId ? store.pushedPages(spaceId).size : 0,
    setAside: store
      .parkedChangeRequests(spaceId)
      .filter((p) => !closed(mirror, p.changeRequestId))
      // Every page it holds, deletes too: counted as the open one's are (`pages` above).
      .map((p) => ({ changeRequestId: p.changeRequestId, number: p.number, subject: p.subject, pages: p.pages.length })),
  };
}

const closed = (mirror: Pick<Mirror, 'reviewRecords'>, changeRequestId: string): boolean => {
  const status = mirror.reviewRecords.serverChangeRequest(changeRequestId)?.status;
  return status === 'merged' || status === 'archived';
};

/**
 * `quire cr new`: the space's next pushes go into a new change request. With a subject and a
 * client, it is created now (its number is known at once); otherwise by the next push.
 * The subject is put on one line, and one with a control character refused (shared/subject.ts).
 * The caller holds the folder's lock.
 */
export async function startChangeRequest(
  api: ApiClient | null,
  mirror: Pick<Mirror, 'log' | 'outbox' | 'reviewRecords' | 'transaction'>,
  spaceId: string,
  given: string | null,
): Promise<ChangeRequestTarget> {
  const subject = given === null ? null : oneLineSubject(given);
  const problem = subject === null ? null : subjectProblem(subject);
  if (problem) throw new Error(`The subject ${problem}.`);
  const store = pushStoreOf(mirror);
  const at = new Date().toISOString();
  mirror.transaction(() => {
    store.park(spaceId, at);
    store.planNew(spaceId, subject, at);
  });
  if (api && subject !== null) {
    store.beginCreate(spaceId, subject, at);
    let cr: ChangeRequest;
    try {
      cr = await api.call<ChangeRequest>((c, p) => c.spaces.createChangeRequest(spaceId, { subject }, p));
    } catch (err) {
      // Surely not created: the next push creates it. Maybe created: the next push looks for it first.
      if (surelyNotApplied(err)) mirror.transaction(() => store.planNew(spaceId, subject, at));
      throw err;
    }
    mirror.transaction(() => {
      store.markOpen(spaceId, cr.id, cr.number);
      store.setStatusSeen(spaceId, cr.status);
      mirror.reviewRecords.putChangeRequest(spaceId, cr);
      mirror.log.add('pushed', `opened change request #${cr.number}: ${subject}`, spaceId);
    });
  }
  return changeRequestTarget(mirror, spaceId);
}

/**
 * `quire cr use`: the space's pushes go into this open change request of the user's. What
 * Quire pushed into it before (when it was set aside) is its record again. The caller checked
 * it is open or a draft, and the user's; and holds the folder's lock.
 */
export function pointPushesAt(
  mirror: Pick<Mirror, 'log' | 'outbox' | 'reviewRecords' | 'transaction'>,
  spaceId: string,
  cr: { id: string; number: number; subject: string; status: string },
): ChangeRequestTarget {
  const store = pushStoreOf(mirror);
  const at = new Date().toISOString();
  mirror.transaction(() => {
    if (store.changeRequest(spaceId)?.changeRequestId === cr.id) {
      store.pointAt(spaceId, { ...cr, subjectByUser: store.changeRequest(spaceId)!.subjectByUser, chosen: true }, at);
      return;
    }
    store.park(spaceId, at);
    const back = store.unpark(spaceId, cr.id, at);
    // A subject Quire gave it (and no one changed since) may go on following what it holds.
    const subjectByUser = back ? back.subjectByUser || back.subject !== cr.subject : true;
    store.pointAt(spaceId, { id: cr.id, number: cr.number, subject: cr.subject, subjectByUser, chosen: true, status: cr.status }, at);
    mirror.log.add('info', `edits of this space now go into change request #${cr.number}`, spaceId);
  });
  return changeRequestTarget(mirror, spaceId);
}

/** The user set a change request's subject: if Quire pushes (or pushed) into it, that subject is never replaced. */
export function keepUserSubject(mirror: Pick<Mirror, 'outbox' | 'transaction'>, spaceId: string, changeRequestId: string, subject: string): void {
  const store = pushStoreOf(mirror);
  mirror.transaction(() => {
    if (store.changeRequest(spaceId)?.changeRequestId === changeRequestId) store.setSubject(spaceId, subject, true);
    store.setParkedSubject(spaceId, changeRequestId, subject);
  });
}

/** What the change request holds now, page by page, for its subject. */
export function subjectItemsOfRecord(mirror: Pick<Mirror, 'content' | 'folder' | 'outbox'>, spaceId: string): SubjectItem[] {
  const store = pushStoreOf(mirror);
  const items: SubjectItem[] = [];
  for (const p of store.pushedPages(spaceId).values()) {
    const base = mirror.content.basePage(spaceId, p.id);
    // A page new in the change request has no title on main: SUMMARY.md's entry names it, before its
    // file name (found by its path: right after the push, its node may still be under its new-page key).
    const key = base || !p.path ? undefined : (mirror.folder.byPath(spaceId, p.path) ?? p.id);
    const listed = key === undefined ? undefined : mirror.folder.node(spaceId, key)?.title;
    const title = (p.text !== null ? pageTitleOf(p.text) : null) ?? base?.title ?? (listed || null) ?? p.name ?? (p.path ? titleOfPath(p.path) : p.id);
    if (p.deleted) {
      if (base) items.push({ verb: 'delete', title: base.title || title });
    } else if (!base) items.push({ verb: 'add', title });
    else if (p.text === null || p.text === mirror.content.baseText(spaceId, p.id)) items.push({ verb: p.moved ? 'move' : 'edit', title });
    else items.push({ verb: 'edit', title });
  }
  for (const f of store.pushedFiles(spaceId)) items.push({ verb: 'add', title: f.name });
  return items;
}

/**
 * After a push: the subject follows what the change request holds, unless the user set one —
 * here, or on GitBook since Quire last wrote it (then it is the user's from now on). Never fails
 * a push: a subject is only words.
 */
export async function followSubject(
  api: ApiClient,
  mirror: Pick<Mirror, 'content' | 'folder' | 'log' | 'outbox' | 'reviewRecords' | 'transaction'>,
  spaceId: string,
  signal?: AbortSignal,
): Promise<void> {
  const store = pushStoreOf(mirror);
  const row = store.changeRequest(spaceId);
  if (row?.state !== 'open' || !row.changeRequestId || row.subjectByUser) return;
  const subject = changeRequestSubject(subjectItemsOfRecord(mirror, spaceId));
  if (subject === row.subject) return;
  const id = row.changeRequestId;
  try {
    const now = await api.call<ChangeRequest>((c, p) => c.spaces.getChangeRequestById(spaceId, id, p), { signal });
    if (now.subject !== row.subject) {
      store.setSubject(spaceId, now.subject ?? '', true);
      return;
    }
    const updated = await api.call<ChangeRequest>((c, p) => c.spaces.updateChangeRequestById(spaceId, id, { subject }, p), { signal });
    mirror.transaction(() => {
      store.setSubject(spaceId, subject, false);
      if (updated && typeof updated === 'object') mirror.reviewRecords.putChangeRequest(spaceId, updated);
    });
  } catch (err) {
    mirror.log.add('info', `could not update the subject of change request #${row.number}: ${(err as Error).message}`, spaceId);
  }
}

/**
 * What the planner takes the change request to hold: what the current one holds, and the pages
 * that exist only in a change request set aside (created there). Those are then edits of a page
 * the server has, not new pages: heldForOtherChangeRequests keeps them back. Reads only (a dry
 * run plans with it too).
 */
export function pushedForPlan(mirror: Pick<Mirror, 'content' | 'outbox' | 'reviewRecords'>, spaceId: string): Map<string, PushedPageRow> {
  const store = pushStoreOf(mirror);
  const pushed = store.pushedPages(spaceId);
  for (const [id, { row }] of onlyInOthers(mirror, spaceId, false)) if (!pushed.has(id)) pushed.set(id, row);
  return pushed;
}

/**
 * Pages created in a change request set aside (and so on no other side yet), by id, with its
 * number. `prune`: forget change requests set aside that were merged or archived since.
 */
function onlyInOthers(
  mirror: Pick<Mirror, 'content' | 'outbox' | 'reviewRecords'>,
  spaceId: string,
  prune: boolean,
): Map<string, { number: number | null; row: PushedPageRow }> {
  const store = pushStoreOf(mirror);
  const out = new Map<string, { number: number | null; row: PushedPageRow }>();
  for (const p of store.parkedChangeRequests(spaceId)) {
    if (closed(mirror, p.changeRequestId)) {
      if (prune) store.dropParked(spaceId, p.changeRequestId);
      continue;
    }
    for (const page of p.pages) {
      if (page.deleted || mirror.content.basePage(spaceId, page.id) || store.pushedPage(spaceId, page.id)) continue;
      out.set(page.id, { number: p.number, row: page });
    }
  }
  return out;
}

/**
 * Pushes that touch a page existing only in a change request set aside (its edits, its delete,
 * a new page under it): held, with what to do, rather than sent where that page is not. `prune`:
 * forget the ones set aside that are closed now (never in a dry run, which writes nothing).
 */
export function heldForOtherChangeRequests(
  mirror: Pick<Mirror, 'content' | 'outbox' | 'reviewRecords'>,
  spaceId: string,
  ops: readonly PushOp[],
  prune = true,
): Held[] {
  const elsewhere = onlyInOthers(mirror, spaceId, prune);
  if (elsewhere.size === 0) return [];
  const held: Held[] = [];
  for (const op of ops) {
    const page = op.op === 'update' || op.op === 'delete' ? op.id : op.op === 'insert' ? op.parentKey : null;
    if (page === null || !elsewhere.has(page)) continue;
    const n = elsewhere.get(page)?.number ?? '?';
    held.push({
      key: op.op === 'insert' ? op.key : (op as { id: string }).id,
      path: op.op === 'files' ? '' : (op.path ?? ''),
      title: `${op.op === 'insert' ? 'its parent page exists' : 'it exists'} only in change request #${n}, set aside: run \`quire cr use ${n} --space ${spaceId}\` to push its edits there, or wait until it is merged`,
      reason: 'other-change-request',
    });
  }
  return held;
}
