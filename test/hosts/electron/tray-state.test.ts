import { describe, expect, it } from 'vitest';
import { trayModel } from '../../../src/main/hosts/electron/tray-state';
import type { SyncStatusVM } from '../../../src/shared/contract';

const status = (patch: Partial<SyncStatusVM>): SyncStatusVM => ({
  state: 'idle',
  progress: null,
  paused: false,
  conflicts: 0,
  pendingActions: 0,
  lastCycleAt: null,
  message: null,
  seq: 1,
  changedAt: 0,
  ...patch,
});

const labels = (s: SyncStatusVM) => trayModel(s).menu.flatMap((m) => ('label' in m ? [m.label] : []));
const item = (s: SyncStatusVM, id: string) => trayModel(s).menu.find((m) => m.id === id);

describe('tray model', () => {
  it('names each sync state in the icon, tooltip and first menu line', () => {
    expect(trayModel(status({ state: 'idle' }))).toMatchObject({ icon: 'idle', tooltip: 'Quire — In sync', progress: -1 });
    expect(labels(status({ state: 'offline' }))[0]).toBe('Offline');
    expect(trayModel(status({ state: 'conflicts', conflicts: 2 })).icon).toBe('conflicts');
    expect(labels(status({ state: 'conflicts', conflicts: 2 }))[0]).toBe('2 conflicts need you');
    expect(labels(status({ state: 'conflicts', conflicts: 1 }))[0]).toBe('1 conflict need you');
    expect(trayModel(status({ state: 'token-rejected' }))).toMatchObject({ icon: 'error' });
    expect(labels(status({ state: 'token-rejected' }))[0]).toBe('Token rejected: sign in again');
    expect(trayModel(status({ state: 'offline', message: 'The API cannot be reached.' })).tooltip).toBe('Quire — Offline\nThe API cannot be reached.');
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
