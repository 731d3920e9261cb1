import { describe, expect, it } from 'vitest';
import { trayModel } from '../../../src/main/hosts/electron/tray-state';
import type { SyncStatusVM } from '../../../src/shared/contract';

const status = (patch: Partial<SyncStatusVM>): SyncStatusVM => ({
  state: 'in-sync',
  reasons: [],
  progress: null,
  paused: false,
  conflicts: 0,
  pendingActions: 0,
  editsWaiting: 0,
  lastReachedServerAt: null,
  offlineSince: null,
  message: null,
  seq: 1,
  changedAt: 0,
  ...patch,
});

const labels = (s: SyncStatusVM) => trayModel(s).menu.flatMap((m) => ('label' in m ? [m.label] : []));
const item = (s: SyncStatusVM, id: string) => trayModel(s).menu.find((m) => m.id === id);

describe('tray model', () => {
  it('names each sync state in the words the app and `quire status` use, with the first reason in the tooltip', () => {
    expect(trayModel(status({ state: 'in-sync' }))).toMatchObject({ icon: 'idle', tooltip: 'Quire — In sync', progress: -1 });
    expect(labels(status({ state: 'offline' }))[0]).toBe('Offline');
    expect(labels(status({ state: 'not-set-up' }))[0]).toBe('Not set up');
    const conflict = { kind: 'conflict', spaceId: 's', path: 'a.md', message: 'a.md: edited here and on the server.', action: 'resolve-conflict' as const };
    const held = { kind: 'held-page', spaceId: 's', path: 'b.md', message: 'b.md is not pushed.', action: 'show-file' as const };
    expect(trayModel(status({ state: 'needs-you', reasons: [conflict] })).icon).toBe('conflicts');
    expect(labels(status({ state: 'needs-you', reasons: [conflict] }))[0]).toBe('Needs you');
    expect(labels(status({ state: 'needs-you', reasons: [conflict, held] }))[0]).toBe('Needs you (2 things)');
    // Edits waiting beside a conflict inform; they are not a second thing that needs you (as the header counts).
    const waiting = { kind: 'edits-waiting', spaceId: 's', message: '1 edit waits for the next sync.', action: 'sync-now' as const };
    expect(labels(status({ state: 'needs-you', reasons: [conflict, waiting] }))[0]).toBe('Needs you');
    const rejected = { kind: 'token-rejected', spaceId: null, message: 'The API rejected the token.', action: 'sign-in' as const };
    expect(trayModel(status({ state: 'needs-you', reasons: [rejected] }))).toMatchObject({
      icon: 'error',
      tooltip: 'Quire — Needs you\nThe API rejected the token.',
    });
    expect(labels(status({ state: 'paused', paused: true, editsWaiting: 1 }))[0]).toBe('Paused · 1 edit waiting');
    const offline = { kind: 'offline', spaceId: null, message: 'The API could not be reached.', action: 'sync-now' as const };
    expect(trayModel(status({ state: 'offline', reasons: [offline] })).tooltip).toBe('Quire — Offline\nThe API could not be reached.');
  });

  it('shows progress while syncing, in the menu and as the window progress bar', () => {
    const s = status({ state: 'syncing', progress: { phase: 'pull', spaceId: 's', spaceTitle: 'Handbook', done: 25, total: 100 } });
    expect(trayModel(s)).toMatchObject({ icon: 'syncing', progress: 0.25 });
    expect(labels(s)[0]).toBe('Syncing Handbook (25/100)');
    expect(item(s, 'sync-now')).toMatchObject({ enabled: false });
    expect(trayModel(status({ state: 'syncing' })).progress).toBe(2);
  });

  it('offers Sync now, Open folder and Pause/Resume', () => {
    expect(labels(status({}))).toEqual(['In sync', 'Sync now', 'Open folder', 'Pause', 'Show Quire', 'Quit']);
    expect(item(status({ state: 'paused', paused: true }), 'pause')).toMatchObject({ label: 'Resume', enabled: true });
    expect(item(status({ state: 'signed-out' }), 'sync-now')).toMatchObject({ enabled: false });
    expect(labels(status({ pendingActions: 3 }))[0]).toBe('In sync · 3 pending');
  });
});
