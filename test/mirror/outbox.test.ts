/**
 * The push side of the mirror (core/mirror/outbox.ts) through `mirror.outbox`: the change request
 * a space pushes into, what it holds, one set aside and taken back, the outbox of batches, refused
 * changes, the watcher's records and holds — each kept as written, across a restart.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Mirror, type PushedPageRow } from '../../src/main/core/mirror';

const SPACE = 'space-1';
const AT = '2026-05-01T10:00:00.000Z';
const LATER = '2026-05-01T11:00:00.000Z';

let mirror: Mirror;
let dir: string;
afterEach(() => mirror?.close());

function open(): Mirror {
  dir = mkdtempSync(join(tmpdir(), 'quire-outbox-'));
  mirror = Mirror.open(dir);
  return mirror;
}

/** Closes the mirror and opens it again, as a restarted app would. */
function reopen(): Mirror {
  mirror.close();
  mirror = Mirror.open(dir);
  return mirror;
}

const page = (id: string, over: Partial<PushedPageRow> = {}): PushedPageRow => ({
  id,
  path: `${id}.md`,
  parentId: null,
  name: id,
  text: `# ${id}\n`,
  deleted: false,
  moved: false,
  ordered: false,
  after: null,
  ...over,
});

describe('the change request a space pushes into', () => {
  it('goes from planned to creating to open, keeping who chose it and whose subject it is', () => {
    const { outbox } = open();
    expect(outbox.changeRequest(SPACE)).toBeUndefined();
    outbox.planNew(SPACE, 'Fix the guide', AT);
    expect(outbox.changeRequest(SPACE)).toMatchObject({ state: 'new', subject: 'Fix the guide', chosen: true, subjectByUser: true, changeRequestId: null });
    outbox.beginCreate(SPACE, 'Fix the guide', LATER);
    outbox.markOpen(SPACE, 'cr-1', 7);
    expect(reopen().outbox.changeRequest(SPACE)).toEqual({
      spaceId: SPACE,
      changeRequestId: 'cr-1',
      number: 7,
      subject: 'Fix the guide',
      state: 'open',
      createdAt: LATER,
      chosen: true,
      subjectByUser: true,
      status: null,
    });
  });

  it('forgets what it held once it is merged or closed', () => {
    const { outbox } = open();
    outbox.pointAt(SPACE, { id: 'cr-1', number: 1, subject: 'Edits', subjectByUser: false, chosen: false, status: 'open' }, AT);
    outbox.upsertPushedPage(SPACE, page('p1'), AT);
    outbox.upsertPushedFile(SPACE, { path: '.gitbook/assets/a.png', name: 'a.png', size: 3, fileId: 'f1' });
    outbox.recordRefused(SPACE, { pageKey: 'p1', path: 'p1.md', textHash: 'h', message: 'too long', at: AT });
    outbox.forgetChangeRequest(SPACE);
    expect(outbox.changeRequest(SPACE)).toBeUndefined();
    expect(outbox.pushedPages(SPACE).size).toBe(0);
    expect(outbox.pushedFiles(SPACE)).toEqual([]);
    expect(outbox.refused(SPACE).size).toBe(0);
  });

  it('is set aside with what it holds, and taken back with all of it', () => {
    const { outbox } = open();
    outbox.pointAt(SPACE, { id: 'cr-1', number: 1, subject: 'First', subjectByUser: true, chosen: true, status: 'open' }, AT);
    outbox.upsertPushedPage(SPACE, page('p1', { moved: true, ordered: true, after: 'p0' }), AT);
    outbox.upsertPushedPage(SPACE, page('p2', { deleted: true, text: null }), AT);
    outbox.upsertPushedFile(SPACE, { path: '.gitbook/assets/a.png', name: 'a.png', size: 3, fileId: 'f1' });
    const parked = outbox.park(SPACE, LATER);
    expect(parked).toMatchObject({ changeRequestId: 'cr-1', number: 1, subject: 'First', subjectByUser: true, chosen: true, parkedAt: LATER });
    expect(outbox.changeRequest(SPACE)).toBeUndefined();
    expect(outbox.pushedPages(SPACE).size).toBe(0);

    outbox.pointAt(SPACE, { id: 'cr-2', number: 2, subject: 'Second', subjectByUser: false, chosen: false, status: 'open' }, LATER);
    outbox.setParkedSubject(SPACE, 'cr-1', 'First, renamed');
    expect(
      reopen()
        .outbox.parkedChangeRequests(SPACE)
        .map((p) => [p.changeRequestId, p.subject, p.subjectByUser]),
    ).toEqual([['cr-1', 'First, renamed', true]]);

    mirror.outbox.park(SPACE, LATER);
    const back = mirror.outbox.unpark(SPACE, 'cr-1', LATER);
    expect(back?.changeRequestId).toBe('cr-1');
    expect(mirror.outbox.pushedPages(SPACE)).toEqual(
      new Map([
        ['p1', page('p1', { moved: true, ordered: true, after: 'p0' })],
        ['p2', page('p2', { deleted: true, text: null })],
      ]),
    );
    expect(mirror.outbox.pushedFileIdAt(SPACE, '.gitbook/assets/a.png')).toBe('f1');
    expect(mirror.outbox.parkedChangeRequests(SPACE).map((p) => p.changeRequestId)).toEqual(['cr-2']);
    expect(mirror.outbox.unpark(SPACE, 'cr-404', LATER)).toBeNull();
  });

  it('sets nothing aside for a space without a change request', () => {
    const { outbox } = open();
    outbox.planNew(SPACE, null, AT);
    expect(outbox.park(SPACE, AT)).toBeNull();
    expect(outbox.parkedChangeRequests(SPACE)).toEqual([]);
    expect(outbox.changeRequest(SPACE)).toMatchObject({ state: 'new', subjectByUser: false });
  });

  it('finds the pages it holds at a path, newest record first, leaving out deleted ones', () => {
    const { outbox } = open();
    outbox.upsertPushedPage(SPACE, page('old', { path: 'a.md' }), AT);
    outbox.upsertPushedPage(SPACE, page('new', { path: 'a.md' }), AT);
    outbox.upsertPushedPage(SPACE, page('gone', { path: 'a.md', deleted: true }), AT);
    expect(outbox.pushedPageIdsAt(SPACE, 'a.md')).toEqual(['new', 'old']);
    outbox.setPushedPath(SPACE, 'old', 'b.md');
    expect(outbox.pushedPageIdsAt(SPACE, 'a.md')).toEqual(['new']);
    expect(outbox.pushedPage(SPACE, 'old')?.path).toBe('b.md');
  });
});

describe('the outbox of batches', () => {
  it('keeps a batch in flight from before it is sent until it is finished, across a restart', () => {
    const { outbox } = open();
    const first = outbox.recordSending(SPACE, 'cr-1', [{ type: 'insert_page' }], [{ key: 'p1' }], AT);
    const second = outbox.recordSending(SPACE, 'cr-1', [{ type: 'update_page' }], [{ key: 'p2' }], AT);
    expect(second).toBeGreaterThan(first);
    const after = reopen().outbox;
    expect(after.inFlight(SPACE).map((b) => [b.seq, b.changes, b.effects, b.state])).toEqual([
      [first, [{ type: 'insert_page' }], [{ key: 'p1' }], 'sending'],
      [second, [{ type: 'update_page' }], [{ key: 'p2' }], 'sending'],
    ]);
    after.finish(first, 'applied', LATER, { response: { revision: 'r2' } });
    after.finish(second, 'refused', LATER, { error: 'bad change' });
    expect(after.inFlight(SPACE)).toEqual([]);
    expect(after.outbox(SPACE).map((b) => [b.seq, b.state, b.finishedAt, b.error])).toEqual([
      [second, 'refused', LATER, 'bad change'],
      [first, 'applied', LATER, null],
    ]);
    expect(after.outbox(SPACE, 1)).toHaveLength(1);
    expect(after.inFlight('another-space')).toEqual([]);
  });
});

describe('refused changes, the watcher’s records, what was left for the writer, holds', () => {
  it('keeps one refusal a page, with no token in its message', () => {
    const { outbox } = open();
    const token = 'gb_api_abcdefghijklmnopqrstuvwxyz0123456789';
    outbox.recordRefused(SPACE, { pageKey: 'p1', path: 'p1.md', textHash: 'h1', message: 'first', at: AT });
    outbox.recordRefused(SPACE, { pageKey: 'p1', path: 'p1.md', textHash: 'h2', message: `refused with Bearer ${token}`, at: LATER });
    outbox.recordRefused(SPACE, { pageKey: 'p2', path: null, textHash: 'h3', message: 'other', at: AT });
    const refused = outbox.refused(SPACE);
    expect([...refused.keys()].sort()).toEqual(['p1', 'p2']);
    expect(refused.get('p1')).toMatchObject({ textHash: 'h2', at: LATER });
    expect(refused.get('p1')?.message).not.toContain(token);
    outbox.clearRefused(SPACE, 'p1');
    expect([...outbox.refused(SPACE).keys()]).toEqual(['p2']);
    outbox.clearAllRefused(SPACE);
    expect(outbox.refused(SPACE).size).toBe(0);
  });

  it('clears the watcher’s records a cycle handled, keeping those seen after it started', () => {
    const { outbox } = open();
    outbox.recordLocalEdit(SPACE, 'a.md', 'change', AT);
    outbox.recordLocalEdit(SPACE, 'b.md', 'add', LATER);
    outbox.recordLocalEdit('space-2', 'c.md', 'unlink', AT);
    outbox.recordLocalEdit(SPACE, 'a.md', 'unlink', AT); // the latest word on a path replaces the earlier
    expect(outbox.localEdits(SPACE).map((e) => [e.path, e.kind])).toEqual([
      ['a.md', 'unlink'],
      ['b.md', 'add'],
    ]);
    outbox.clearLocalEdits(SPACE, AT);
    expect(outbox.localEdits().map((e) => [e.spaceId, e.path])).toEqual([
      ['space-2', 'c.md'],
      [SPACE, 'b.md'],
    ]);
  });

  it('replaces what a cycle left for the writer with what the last one left, in order', () => {
    const { outbox } = open();
    outbox.setAttention(SPACE, [{ reason: 'too-large', path: 'a.md', key: 'p1' }], AT);
    outbox.setAttention(
      SPACE,
      [
        { reason: 'summary-line', path: 'SUMMARY.md', line: 4, title: 'Guide', key: null },
        { reason: 'unreadable', path: 'b.md', key: 'p2' },
      ],
      LATER,
    );
    expect(outbox.attention(SPACE)).toEqual([
      { reason: 'summary-line', path: 'SUMMARY.md', line: 4, title: 'Guide', key: null },
      { reason: 'unreadable', path: 'b.md', key: 'p2' },
    ]);
  });

  it('keeps a hold with the pages it holds, and reads a damaged list of them as none', () => {
    const { outbox } = open();
    const hold = { kind: 'mass-delete' as const, localDeletes: 30, remoteDeletes: 0, pages: 40, deletes: { server: ['p1', 'p2'], here: [] }, at: AT };
    outbox.setHold(SPACE, hold);
    expect(reopen().outbox.hold(SPACE)).toEqual(hold);
    mirror.outbox.setHold(SPACE, { ...hold, deletes: { server: [1, 2], here: 'x' } as unknown as typeof hold.deletes });
    expect(mirror.outbox.hold(SPACE)?.deletes).toEqual({ server: [], here: [] });
    mirror.outbox.clearHold(SPACE);
    expect(mirror.outbox.hold(SPACE)).toBeUndefined();
  });
});
