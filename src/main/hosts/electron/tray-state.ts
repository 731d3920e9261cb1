import type { SyncStatusVM } from '../../../shared/contract';

export type TrayIconState = 'idle' | 'syncing' | 'offline' | 'conflicts' | 'error' | 'paused' | 'signed-out';

export type TrayMenuItem =
  | { id: 'status'; label: string; enabled: false }
  | { id: 'sync-now' | 'open-folder' | 'pause' | 'show' | 'quit'; label: string; enabled: boolean }
  | { id: 'separator' };

export interface TrayModel {
  icon: TrayIconState;
  tooltip: string;
  menu: TrayMenuItem[];
  /** Window progress bar: 0..1 while a sync with a known size runs, 2 (indeterminate) for unknown size, -1 to hide. */
  progress: number;
}

function stateLine(s: SyncStatusVM): { icon: TrayIconState; text: string } {
  switch (s.state) {
    case 'syncing': {
      const p = s.progress;
      const where = p?.spaceTitle ? ` ${p.spaceTitle}` : '';
      const count = p && p.total > 0 ? ` (${p.done}/${p.total})` : '';
      return { icon: 'syncing', text: `Syncing${where}${count}` };
    }
    case 'idle':
      return { icon: 'idle', text: 'In sync' };
    case 'offline':
      return { icon: 'offline', text: 'Offline' };
    case 'conflicts':
      return { icon: 'conflicts', text: `${s.conflicts} conflict${s.conflicts === 1 ? '' : 's'} need you` };
    case 'token-rejected':
      return { icon: 'error', text: 'Token rejected: sign in again' };
    case 'paused':
      return { icon: 'paused', text: 'Paused' };
    case 'error':
      return { icon: 'error', text: 'Sync failed' };
    case 'signed-out':
      return { icon: 'signed-out', text: 'Signed out' };
  }
}

/** What the tray icon, its menu and the window's progress bar show for a sync status. */
export function trayModel(s: SyncStatusVM): TrayModel {
  const { icon, text } = stateLine(s);
  const signedIn = s.state !== 'signed-out';
  const pending = s.pendingActions > 0 ? ` · ${s.pendingActions} pending` : '';
  const progress = s.state === 'syncing' ? (s.progress && s.progress.total > 0 ? Math.min(1, s.progress.done / s.progress.total) : 2) : -1;
  return {
    icon,
    tooltip: `Quire — ${text}${pending}${s.message && s.state !== 'syncing' ? `\n${s.message}` : ''}`,
    progress,
    menu: [
      { id: 'status', label: `${text}${pending}`, enabled: false },
      { id: 'separator' },
      { id: 'sync-now', label: 'Sync now', enabled: signedIn && s.state !== 'syncing' },
      { id: 'open-folder', label: 'Open folder', enabled: true },
      { id: 'pause', label: s.paused ? 'Resume' : 'Pause', enabled: signedIn },
      { id: 'separator' },
      { id: 'show', label: 'Show Quire', enabled: true },
      { id: 'quit', label: 'Quit', enabled: true },
    ],
  };
}
