/**
 * Search and page history follow what a cycle did, at the cost of what changed: the files it
 * read, wrote, moved or deleted are indexed again (or dropped), and each text a page had is
 * kept as a version with why — the writer's text just before a merge replaced it, the server's
 * text pulled or merged, the server's side of a conflict, a page deleted on the server, and
 * what went into the change request.
 *
 * Files written follow as apply writes them (followWrites, in apply's batches); the rest runs
 * after the files are applied, just before the cycle is recorded (the mirror still knows what a
 * deleted page held), in the record's transaction. The index and history are derived: a crash
 * between a batch and the record only means a version or an index entry less, never a wrong file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Mirror } from '../mirror';
import { pageDocument } from '../search';
import type { ApplyResult, WrittenPage } from './apply';
import type { Plan, PushOp } from './plan';
import type { ScanResult } from './scan';
import { relSpelledOnDisk } from './spelling';

export interface CycleFacts {
  mirror: Mirror;
  spaceId: string;
  spaceDir: string;
  plan: Plan;
  applied: ApplyResult;
  scan: ScanResult;
  at: string;
  /** Main's revision this cycle pulled, when it pulled one. */
  revision: string | null;
}

/** Each page's title after the cycle (the plan's, else the folder's as recorded). */
function titles(mirror: Mirror, spaceId: string, plan: Plan): (key: string) => string | null {
  const planned = new Map(plan.folder.upsert.map((r) => [r.key, r.title]));
  return (key) => planned.get(key) ?? mirror.folder.node(spaceId, key)?.title ?? null;
}

/**
 * What follows a page file apply wrote (apply calls it inside a transaction): its text is indexed,
 * and kept as a version — the server's text pulled, or merged (with the writer's text before the
 * merge) — unless it was written again only for its links.
 */
export function followWrites(f: Omit<CycleFacts, 'applied'>): (page: WrittenPage) => void {
  const { mirror, spaceId, scan, at } = f;
  const titleOf = titles(mirror, spaceId, f.plan);
  const detail = f.revision ? `revision ${f.revision}` : 'main';
  return ({ key, path, text, relinked }) => {
    if (!relinked) {
      const edited = scan.local.edited.get(key);
      const mine = edited ? scan.read.get(edited.path) : undefined;
      if (mine !== undefined) {
        // The writer's text is merged with the server's: both are kept.
        mirror.history.record({ spaceId, pageId: key, path: edited!.path, title: titleOf(key), text: mine, reason: 'local', detail: 'before a merge', at });
        mirror.history.record({ spaceId, pageId: key, path, title: titleOf(key), text, reason: 'merged', detail, at });
      } else mirror.history.record({ spaceId, pageId: key, path, title: titleOf(key), text, reason: 'pulled', detail, at });
    }
    mirror.search.indexPage({ spaceId, key, path, ...pageDocument(text, titleOf(key) ?? '') });
  };
}

/** What follows the rest of a cycle (files written followed already, followWrites). */
export function followCycle(f: CycleFacts): void {
  const { mirror, spaceId, spaceDir, plan, applied, scan, at } = f;
  const read = (path: string): string | null => {
    try {
      return readFileSync(join(spaceDir, relSpelledOnDisk(spaceDir, path)), 'utf8');
    } catch {
      return null;
    }
  };
  const titleOf = titles(mirror, spaceId, plan);
  const detail = f.revision ? `revision ${f.revision}` : 'main';

  // What the folder holds now, by key and path: to index, and to keep as versions.
  const current = new Map<string, string>();
  for (const [key, e] of scan.local.edited) current.set(key, e.path);
  for (const [key, m] of scan.local.moved) current.set(key, m.to);
  for (const a of scan.local.added) current.set(`new:${a.path}`, a.path);
  for (const [key, path] of applied.moved) current.set(key, path);
  for (const [key, w] of applied.written) current.set(key, w.path);
  const gone = new Set([...applied.deleted.keys(), ...scan.local.vanished.keys()].filter((k) => !current.has(k)));

  mirror.within(() => {
    for (const op of plan.fileOps) {
      if (op.op !== 'remote-copy' || !applied.copies.includes(op.path)) continue;
      const text = read(op.path);
      if (text !== null)
        mirror.history.record({ spaceId, pageId: op.key, path: op.path, title: titleOf(op.key), text, reason: 'conflict-copy', detail: op.path, at });
    }
    for (const [key, path] of applied.deleted) {
      const text = mirror.outbox.pushedPage(spaceId, key)?.text ?? mirror.content.baseText(spaceId, key);
      if (text !== null) mirror.history.record({ spaceId, pageId: key, path, title: titleOf(key), text, reason: 'deleted-remotely', detail, at });
    }

    for (const [key, path] of current) {
      if (applied.written.has(key)) continue; // indexed as written
      const text = read(path);
      if (text === null) continue;
      mirror.search.indexPage({ spaceId, key, path, ...pageDocument(text, titleOf(key) ?? '') });
    }
    for (const key of gone) mirror.search.removePage(spaceId, key);
  });
}

/** What a confirmed push put into the change request, kept as versions (`change request #n`). */
export function followPush(mirror: Mirror, spaceId: string, ops: readonly PushOp[], applied: ReadonlySet<string>, changeRequest: string, at: string): void {
  const titleOf = (key: string): string | null => mirror.folder.node(spaceId, key)?.title ?? null;
  mirror.transaction(() => {
    for (const op of ops) {
      if (op.op === 'insert' && applied.has(op.key)) {
        mirror.history.record({ spaceId, pageId: op.key, path: op.path, title: titleOf(op.key), text: op.text, reason: 'pushed', detail: changeRequest, at });
      } else if (op.op === 'update' && op.text !== null && applied.has(op.id)) {
        mirror.history.record({ spaceId, pageId: op.id, path: op.path, title: titleOf(op.id), text: op.text, reason: 'pushed', detail: changeRequest, at });
      } else if (op.op === 'delete' && applied.has(op.id)) {
        const text = mirror.outbox.pushedPage(spaceId, op.id)?.text ?? mirror.content.baseText(spaceId, op.id);
        if (text !== null)
          mirror.history.record({ spaceId, pageId: op.id, path: op.path, title: titleOf(op.id), text, reason: 'deleted-locally', detail: changeRequest, at });
      }
    }
  });
}

/** A new page's key became the id the server gave it. */
export function followNewId(mirror: Pick<Mirror, 'history' | 'search'>, spaceId: string, from: string, to: string): void {
  mirror.search.renamePage(spaceId, from, to);
  mirror.history.renameKey(spaceId, from, to);
}
