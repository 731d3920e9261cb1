/**
 * Model-based test of the whole engine against the fake API: thousands of random steps
 * interleaving edits in the folder (edit, add, delete, rename, move), edits on main
 * (edit, add, delete, move, rename), reviewers merging or closing the change request,
 * network faults, crashes mid-cycle, and conflict resolutions. After every quiescent
 * point (faults cleared, cycles run until nothing moves) it checks:
 *
 * - the folder says what main with the open change request applied says (conflicted
 *   pages aside), and there is never more than one open change request;
 * - every edit survives somewhere: in main, in the open change request, or in a file of
 *   the folder (conflict copies included), unless its own side deleted it since.
 *
 * And after every cycle: what the open change request holds for a page a conflict holds, the
 * writer's pushed text, is what it held before the cycle.
 *
 * The seed is fixed (printed), so CI is repeatable; explore others with QUIRE_MODEL_SEED=<seed>
 * and QUIRE_MODEL_STEPS=<n> for a longer run. QUIRE_MODEL_TRACE=<token> (e.g. R297) prints,
 * after every step, where that edit is (add QUIRE_MODEL_TRACE_OUTBOX=1 for the outbox).
 *
 * One file on purpose (~480 lines): the steps, the reference model and the invariants are
 * one model, and reading them side by side is how a failing seed gets understood.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { ApiClient } from '../../../src/main/core/api';
import { Mirror } from '../../../src/main/core/mirror';
import { SyncEngine } from '../../../src/main/core/sync/engine';
import { pushStoreOf } from '../../../src/main/core/sync/outbox';
import { ConflictNotFoundError, resolveConflict } from '../../../src/main/core/sync/conflicts';
import { pickPageMeta } from '../../../src/main/core/content';
import { canonicalPageText } from '../../../src/main/core/content';
import { pageFileFromServer } from '../../../src/main/core/sync/page-file';
import { startFakeApi, type FakeApi, type PageRec, type SpaceRec } from '../../fake';
import { mergeRevisions } from '../../fake/merge';
import { tempDir } from '../../helpers/cli';

const SEED = Number(process.env.QUIRE_MODEL_SEED ?? 20261123);
const STEPS = Number(process.env.QUIRE_MODEL_STEPS ?? 2000);
const CHECK_EVERY = 25;

type Action =
  | { kind: 'localEdit' | 'localDelete' | 'localRename' | 'remoteEdit' | 'remoteDelete' | 'remoteRename'; pick: number }
  | { kind: 'localAdd' | 'localMove' | 'remoteAdd' | 'remoteMove'; pick: number; where: number }
  | { kind: 'sync' | 'merge' | 'close' }
  | { kind: 'fault'; fault: 'drop' | '503' | '500' | '502'; target: number }
  | { kind: 'crash'; after: number }
  | { kind: 'resolve'; pick: number; how: 'delete-copy' | 'mine' | 'theirs' };

const arbAction: fc.Arbitrary<Action> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('localEdit' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('localAdd' as const), pick: fc.nat(), where: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('localDelete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('localRename' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('localMove' as const), pick: fc.nat(), where: fc.nat() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('remoteEdit' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remoteAdd' as const), pick: fc.nat(), where: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remoteDelete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remoteRename' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remoteMove' as const), pick: fc.nat(), where: fc.nat() }) },
  { weight: 9, arbitrary: fc.record({ kind: fc.constant('sync' as const) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('merge' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fault' as const),
      fault: fc.constantFrom('drop' as const, '503' as const, '500' as const, '502' as const),
      target: fc.nat(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('crash' as const), after: fc.integer({ min: 0, max: 12 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('resolve' as const),
      pick: fc.nat(),
      how: fc.constantFrom('delete-copy' as const, 'mine' as const, 'theirs' as const),
    }),
  },
);

let fake: FakeApi;
let root: string;
let dir: string;
let space: SpaceRec;
let mirror: Mirror;

beforeAll(async () => {
  fake = await startFakeApi();
  const org = fake.store.addOrg({ title: 'Model' });
  space = fake.store.addSpace(org.id, {
    title: 'Model',
    pages: [
      { title: 'Home', markdown: 'home base\n' },
      {
        title: 'Guide',
        markdown: 'guide base\n',
        pages: [
          { title: 'Install', markdown: 'install base\n' },
          { title: 'Use', markdown: 'use base\n' },
        ],
      },
      { title: 'Faq', markdown: 'faq base\n' },
      { title: 'News', markdown: 'news base\n' },
    ],
  });
  root = tempDir('quire-model-');
  dir = join(root, 'model');
  mirror = Mirror.open(root);
});
afterAll(async () => {
  mirror?.close();
  await fake?.close();
});

// ---- the world -----------------------------------------------------------------------------

let counter = 0;
/** Step at which each token was written, and every step with what it did, for failure reports. */
const bornAt = new Map<string, number>();
const journal: string[] = [];
/** Tokens that must survive, with who wrote them. */
const live = new Map<string, 'local' | 'remote'>();
const tokensIn = (text: string) => text.match(/\b[LR]\d+\b/g) ?? [];
const excuse = (text: string) => {
  for (const t of tokensIn(text)) live.delete(t);
};

function listFiles(base: string, rel = ''): string[] {
  if (!existsSync(join(base, rel))) return [];
  const out: string[] = [];
  for (const e of readdirSync(join(base, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name !== '.quire' && e.name !== '.gitbook') out.push(...listFiles(base, p));
    } else if (!e.name.startsWith('.quire-tmp-')) out.push(p);
  }
  return out.sort();
}
const pageFiles = () => listFiles(dir).filter((p) => p.endsWith('.md') && !p.endsWith('.remote.md') && p !== 'SUMMARY.md');
const folders = () =>
  [
    ...new Set([
      '',
      ...pageFiles()
        .map((p) => posix.dirname(p))
        .filter((d) => d !== '.'),
    ]),
  ].sort();
const mainDocs = () => [...fake.store.currentRevision(space.id).pages.values()].filter((p) => p.type === 'document');
const openRequests = () => fake.store.changeRequestsOf(space.id).filter((c) => c.status === 'open');
const conflictRows = () => mirror.content.conflicts(space.id);

function newApi(onResponse?: () => void): { api: ApiClient; abort: AbortController } {
  const abort = new AbortController();
  const api = new ApiClient({
    baseUrl: fake.url,
    token: fake.token,
    maxAttempts: 1,
    timeoutMs: 5000,
    signal: abort.signal,
    onEvent: (e) => {
      if (e.type === 'response') onResponse?.();
    },
  });
  return { api, abort };
}

/** Runs one cycle; returns the error it ended with, or null. */
async function cycle(api: ApiClient): Promise<Error | null> {
  const pushed = pushedTexts();
  try {
    await new SyncEngine({ api, mirror, root, spaces: { ids: [space.id] }, allowMassDelete: true }).runCycle();
    return null;
  } catch (err) {
    return err as Error;
  } finally {
    // A conflict never rewrites what the writer pushed (a cycle may move the request's base).
    const now = pushedTexts();
    for (const c of conflictRows()) {
      const key = `${openRequests()[0]?.id}/${c.pageId}`;
      if (pushed.has(key)) expect(now.get(key), `the change request's text of conflicted ${c.path}`).toBe(pushed.get(key));
    }
  }
}

/** The open change request's texts of the pages whose text it changed (or deleted), by request and page. */
function pushedTexts(): Map<string, string | null> {
  const [cr] = openRequests();
  if (!cr) return new Map();
  const revision = fake.store.revision(space.id, cr.revisionId);
  const texts = new Map<string, string | null>();
  for (const p of pushStoreOf(mirror).pushedPages(space.id).values())
    if (p.text !== null || p.deleted) texts.set(`${cr.id}/${p.id}`, revision.pages.get(p.id)?.markdown ?? null);
  return texts;
}

/** Set after any change on main, cleared by a clean cycle: a reviewer only merges an up-to-date request. */
let mainMovedSinceSync = true;

async function step(a: Action): Promise<void> {
  const files = pageFiles();
  const docs = mainDocs();
  switch (a.kind) {
    case 'localEdit': {
      if (files.length === 0) return;
      const path = files[a.pick % files.length]!;
      const text = readFileSync(join(dir, path), 'utf8');
      const lines = text.replace(/\n+$/, '').split('\n');
      const token = `L${counter++}`;
      const at = Math.min(lines.length, 2 + (a.pick % Math.max(1, lines.length - 1)));
      lines.splice(at, 0, '', `${token} written here`);
      writeFileSync(join(dir, path), `${lines.join('\n')}\n`);
      live.set(token, 'local');
      bornAt.set(token, journal.length - 1);
      return;
    }
    case 'localAdd': {
      const folder = folders()[a.where % folders().length] ?? '';
      const n = counter++;
      const path = folder ? `${folder}/new-${n}.md` : `new-${n}.md`;
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), `# New ${n}\n\nL${n} written here\n`);
      live.set(`L${n}`, 'local');
      bornAt.set(`L${n}`, journal.length - 1);
      return;
    }
    case 'localDelete': {
      if (files.length === 0) return;
      const path = files[a.pick % files.length]!;
      excuse(readFileSync(join(dir, path), 'utf8'));
      rmSync(join(dir, path));
      return;
    }
    case 'localRename':
    case 'localMove': {
      const where = a.kind === 'localMove' ? a.where : 0;
      const movable = files.filter((f) => posix.basename(f) !== 'README.md');
      if (movable.length === 0) return;
      const path = movable[a.pick % movable.length]!;
      const folder = a.kind === 'localMove' ? (folders()[where % folders().length] ?? '') : posix.dirname(path) === '.' ? '' : posix.dirname(path);
      const name = a.kind === 'localRename' ? `renamed-${counter++}.md` : posix.basename(path);
      const to = folder ? `${folder}/${name}` : name;
      if (existsSync(join(dir, to))) return;
      renameSync(join(dir, path), join(dir, to));
      return;
    }
    case 'remoteEdit': {
      if (docs.length === 0) return;
      const page = docs[a.pick % docs.length]!;
      const token = `R${counter++}`;
      fake.store.editPage(space.id, page.id, { markdown: `${page.markdown.replace(/\n+$/, '')}\n\n${token} written there\n` });
      live.set(token, 'remote');
      bornAt.set(token, journal.length - 1);
      mainMovedSinceSync = true;
      return;
    }
    case 'remoteAdd': {
      const n = counter++;
      const parent = a.where % 3 === 0 || docs.length === 0 ? null : docs[a.where % docs.length]!.id;
      fake.store.addPage(space.id, { title: `Remote ${n}`, markdown: `R${n} written there\n` }, { parent });
      live.set(`R${n}`, 'remote');
      bornAt.set(`R${n}`, journal.length - 1);
      mainMovedSinceSync = true;
      return;
    }
    case 'remoteDelete': {
      if (docs.length <= 1) return;
      const page = docs[a.pick % docs.length]!;
      const revision = fake.store.currentRevision(space.id);
      const gone = [page.id];
      for (let i = 0; i < gone.length; i++) for (const p of revision.pages.values()) if (p.parentId === gone[i]) gone.push(p.id);
      for (const id of gone) excuse(revision.pages.get(id)?.markdown ?? '');
      fake.store.deletePage(space.id, page.id);
      mainMovedSinceSync = true;
      return;
    }
    case 'remoteRename':
    case 'remoteMove': {
      if (docs.length === 0) return;
      const page = docs[a.pick % docs.length]!;
      try {
        if (a.kind === 'remoteRename') fake.store.editPage(space.id, page.id, { slug: `moved-${counter++}` });
        else {
          const where = 'where' in a ? a.where : 0;
          const target = where % 3 === 0 ? null : docs[where % docs.length]!;
          fake.store.movePage(space.id, page.id, { parent: target?.id ?? null });
        }
        mainMovedSinceSync = true;
      } catch {
        // A move under itself or a slug taken: the server refuses, nothing happens.
      }
      return;
    }
    case 'merge': {
      const [cr] = openRequests();
      if (!cr || mainMovedSinceSync) return;
      // On a page a conflict holds, the request has the writer's text and main's side is beside the
      // file: merging is the reviewer keeping the writer's side (GitBook asks which), so what main
      // loses there is the reviewer's to drop.
      const held = new Set(conflictRows().flatMap((c) => (c.pageId !== null ? [c.pageId] : [])));
      const before = [...fake.store.currentRevision(space.id).pages.values()].filter((p) => held.has(p.id));
      fake.store.mergeChangeRequest(space.id, cr.id);
      const after = fake.store.currentRevision(space.id);
      for (const p of before) {
        const kept = new Set(tokensIn(after.pages.get(p.id)?.markdown ?? ''));
        for (const t of tokensIn(p.markdown)) if (!kept.has(t)) live.delete(t);
      }
      mainMovedSinceSync = true;
      return;
    }
    case 'close': {
      const [cr] = openRequests();
      if (cr) fake.store.updateChangeRequestFields(space.id, cr.id, { status: 'archived' });
      return;
    }
    case 'sync': {
      if ((await cycle(newApi().api)) === null) mainMovedSinceSync = false;
      return;
    }
    case 'fault': {
      const targets = [/\/content$/, /\/change-requests$/, /\/content\/page\//, /\/change-requests\/[^/]+$/, /\/revision/, /./];
      const match = targets[a.target % targets.length]!;
      if (a.fault === 'drop') fake.faults.drop(1, { match });
      else fake.faults.fail(1, Number(a.fault), { match });
      await cycle(newApi().api);
      fake.faults.clear();
      return;
    }
    case 'crash': {
      let seen = 0;
      const { api, abort } = newApi(() => {
        if (++seen > a.after) abort.abort();
      });
      await cycle(api);
      return;
    }
    case 'resolve': {
      const rows = conflictRows();
      if (rows.length === 0) return;
      const c = rows[a.pick % rows.length]!;
      const local = existsSync(join(dir, c.path)) ? readFileSync(join(dir, c.path), 'utf8') : '';
      const remote = c.remotePath && existsSync(join(dir, c.remotePath)) ? readFileSync(join(dir, c.remotePath), 'utf8') : '';
      const keeps = a.how === 'theirs' ? remote : local;
      // What the writer chose to drop is theirs to drop.
      for (const t of tokensIn(a.how === 'theirs' ? local : remote)) if (!keeps.includes(t)) live.delete(t);
      if (a.how === 'theirs' && c.kind === 'deleted-remotely') excuse(local);
      if (a.how === 'delete-copy') {
        if (c.remotePath && existsSync(join(dir, c.remotePath))) rmSync(join(dir, c.remotePath));
      } else {
        try {
          await resolveConflict(mirror, root, space.id, c.path, a.how);
        } catch (err) {
          // Resolved by hand already (the copy is gone): nothing to take from the server.
          if (!(err instanceof ConflictNotFoundError)) throw err;
        }
      }
      return;
    }
  }
}

/** Clears faults and cycles until a cycle changes nothing. */
async function settle(): Promise<void> {
  fake.faults.clear();
  let last = '';
  for (let i = 0; i < 6; i++) {
    const err = await cycle(newApi().api);
    if (err) throw new Error(`a cycle without faults failed: ${err.stack ?? err.message}`);
    mainMovedSinceSync = false;
    const snapshot = JSON.stringify([
      listFiles(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]),
      fake.requests.filter((r) => r.method !== 'GET').length,
    ]);
    if (snapshot === last) return;
    last = snapshot;
  }
  throw new Error('sync did not settle within 6 cycles');
}

const docText = (p: PageRec) =>
  canonicalPageText(pageFileFromServer({ title: p.title, meta: pickPageMeta(p as unknown as Record<string, unknown>) }, p.markdown));

function checkInvariants(): void {
  const open = openRequests();
  expect(open.length, 'at most one open change request').toBeLessThanOrEqual(1);
  const main = fake.store.currentRevision(space.id);
  let expected = [...main.pages.values()];
  if (open[0]) {
    const cr = open[0];
    const crRevision = fake.store.revision(space.id, cr.revisionId);
    const merged = mergeRevisions(fake.store.revision(space.id, fake.store.baseRevisionId(cr)), main, crRevision);
    expected = [...merged.pages.values()];
  }
  const conflicts = conflictRows();
  const heldIds = new Set(conflicts.map((c) => c.pageId));
  const heldPaths = new Set(conflicts.map((c) => c.path));
  // New files under a page the server deleted may wait for that conflict to be decided.
  // (The folder a page owns: the root README.md's is named after it.)
  const ownFolder = (c: (typeof conflicts)[number]) =>
    (c.pageId !== null ? mirror.folder.node(space.id, c.pageId)?.folder : null) ?? c.path.replace(/\/README\.md$/, '').replace(/\.md$/, '');
  const waitingUnder = conflicts.filter((c) => c.kind === 'deleted-remotely').map((c) => `${ownFolder(c)}/`);
  const mayWait = new Set(pageFiles().filter((f) => waitingUnder.some((prefix) => f.startsWith(prefix))));
  const want = expected
    .filter((p) => p.type === 'document' && !heldIds.has(p.id))
    .map(docText)
    .sort();
  const have = pageFiles()
    .filter((f) => !heldPaths.has(f) && !mayWait.has(f))
    .map((f) => canonicalPageText(readFileSync(join(dir, f), 'utf8')))
    .sort();
  for (const f of mayWait) {
    const i = want.indexOf(canonicalPageText(readFileSync(join(dir, f), 'utf8')));
    if (i >= 0) want.splice(i, 1);
  }
  // A page deleted here waits while a held page is under it (its delete would take it along).
  const byId = new Map(expected.map((p) => [p.id, p]));
  for (const id of heldIds) {
    for (let p = id ? byId.get(id)?.parentId : null; p; p = byId.get(p)?.parentId ?? null) {
      const page = byId.get(p);
      if (!page) break;
      const text = docText(page);
      const i = want.indexOf(text);
      if (i >= 0 && !have.includes(text)) want.splice(i, 1);
    }
  }
  // A page deleted here waits while a page under it on the server cannot leave it yet (that page
  // now sits, in the folder, under a conflicted page the server deleted): its delete is pending.
  const rows = new Map(mirror.folder.tree(space.id).map((r) => [r.key, r]));
  const underHeld = (key: string): boolean => {
    for (let k: string | null = rows.get(key)?.parentKey ?? null, n = 0; k !== null && n < 64; k = rows.get(k)?.parentKey ?? null, n++)
      if (heldIds.has(k)) return true;
    return false;
  };
  const serverUnder = (id: string, ancestor: string): boolean => {
    for (let p = byId.get(id)?.parentId ?? null, n = 0; p && n < 64; p = byId.get(p)?.parentId ?? null, n++) if (p === ancestor) return true;
    return false;
  };
  for (const r of rows.values()) {
    if (!r.pending || r.path !== null) continue;
    if (!expected.some((p) => serverUnder(p.id, r.key) && underHeld(p.id))) continue;
    const page = byId.get(r.key);
    const i = page ? want.indexOf(docText(page)) : -1;
    if (i >= 0) want.splice(i, 1);
  }
  const missing = want.filter((t) => !have.includes(t));
  const extra = have.filter((t) => !want.includes(t));
  if (missing.length || extra.length) {
    const store = pushStoreOf(mirror);
    const debug = {
      missing,
      extra,
      conflicts,
      files: pageFiles(),
      open: open.map((c) => c.id),
      pushed: [...store.pushedPages(space.id).values()].map((p) => ({ ...p, text: p.text?.slice(0, 80) })),
      outbox: store
        .outbox(space.id, 6)
        .map((r) => ({ seq: r.seq, state: r.state, cr: r.changeRequestId, error: r.error, changes: r.changes.map((c) => JSON.stringify(c).slice(0, 160)) })),
      log: mirror.log.recent(12).map((l) => `${l.kind}: ${l.message}`),
    };
    throw new Error(`the folder does not say what main with the open change request applied says:\n${JSON.stringify(debug, null, 1)}`);
  }

  checkNoLoss();
}

/** Every live token is in main, in the open change request, or in a file of the folder. */
function checkNoLoss(): void {
  const main = fake.store.currentRevision(space.id);
  const requestTexts = openRequests().flatMap((cr) => [...fake.store.revision(space.id, cr.revisionId).pages.values()].map((p) => p.markdown));
  const everywhere = [
    ...[...main.pages.values()].map((p) => p.markdown),
    ...requestTexts,
    ...listFiles(dir)
      .filter((f) => f.endsWith('.md'))
      .map((f) => readFileSync(join(dir, f), 'utf8')),
  ].join('\n');
  const lost = [...live.keys()].filter((t) => !new RegExp(`\\b${t}\\b`).test(everywhere));
  if (lost.length) {
    const since = Math.min(...lost.map((t) => bornAt.get(t) ?? 0));
    throw new Error(`edits lost: ${lost.join(', ')} (written at step ${since}); steps since:\n${journal.slice(since).join('\n')}`);
  }
}

describe('the engine over random steps against the fake API', () => {
  it(`keeps the folder in line with main plus the change request and loses no edit (seed ${SEED}, ${STEPS} steps)`, async () => {
    console.log(`engine model test: seed ${SEED}, ${STEPS} steps (replay with QUIRE_MODEL_SEED=${SEED})`);
    const actions = fc.sample(fc.array(arbAction, { minLength: STEPS, maxLength: STEPS }), { seed: SEED, numRuns: 1 })[0]!;
    await settle();
    const history: string[] = [];
    for (let i = 0; i < actions.length; i++) {
      history.push(JSON.stringify(actions[i]));
      journal.push(`${i}: ${JSON.stringify(actions[i])}`);
      try {
        await step(actions[i]!);
        if (process.env.QUIRE_MODEL_TRACE) {
          const token = process.env.QUIRE_MODEL_TRACE;
          if (/^[LR]\d+$/.test(token)) {
            const has = (t: string | null | undefined) => (t ?? '').includes(token);
            const main = [...fake.store.currentRevision(space.id).pages.values()].filter((p) => has(p.markdown)).map((p) => p.id);
            const cr = openRequests().flatMap((c) =>
              [...fake.store.revision(space.id, c.revisionId).pages.values()].filter((p) => has(p.markdown)).map((p) => `${c.id}:${p.id}`),
            );
            const files = listFiles(dir).filter((f) => f.endsWith('.md') && has(readFileSync(join(dir, f), 'utf8')));
            const base = mirror.content
              .pages(space.id)
              .filter((p) => has(p.baseContent))
              .map((p) => `${p.id}@${p.path}`);
            const pushed = [...pushStoreOf(mirror).pushedPages(space.id).values()].filter((p) => has(p.text)).map((p) => p.id);
            console.log(
              `TRACE ${i} ${JSON.stringify(actions[i])} main=${main} cr=${cr} files=${files} base=${base} pushed=${pushed} conflicts=${conflictRows().map((c) => c.path)}`,
            );
            if (process.env.QUIRE_MODEL_TRACE_OUTBOX) {
              for (const r of pushStoreOf(mirror).outbox(space.id, 3))
                console.log(`  OUTBOX ${r.seq} ${r.state} ${r.error ?? ''} ${r.changes.map((c) => JSON.stringify(c).slice(0, 90)).join(' | ')}`);
              for (const l of mirror.log.recent(4)) console.log(`  LOG ${l.kind}: ${l.message}`);
            }
          }
          checkNoLoss();
        }
        if ((i + 1) % CHECK_EVERY === 0) {
          await settle();
          checkInvariants();
        }
      } catch (err) {
        throw new Error(
          `step ${i} failed (seed ${SEED}; replay with QUIRE_MODEL_SEED=${SEED}); last steps:\n${history.slice(-15).join('\n')}\n${(err as Error).stack ?? err}`,
        );
      }
    }
    await settle();
    checkInvariants();
  }, 240_000);
});
