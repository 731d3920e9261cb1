import { needsYou, SYNC_STATE_WORDS, type SyncStatusVM } from '../../../shared/contract';
import { plural } from '../../../shared/plural';

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

/** The state in the words every host uses (the app's header, `quire status`), with what the tray adds. */
function stateLine(s: SyncStatusVM): { icon: TrayIconState; text: string } {
  switch (s.state) {
    case 'syncing': {
      const p = s.progress;
      const where = p?.spaceTitle ? ` ${p.spaceTitle}` : '';
      const count = p && p.total > 0 ? ` (${p.done}/${p.total})` : '';
      return { icon: 'syncing', text: where || count ? `Syncing${where}${count}` : SYNC_STATE_WORDS.syncing };
    }
    case 'in-sync':
      return { icon: 'idle', text: SYNC_STATE_WORDS['in-sync'] };
    case 'offline':
      return { icon: 'offline', text: SYNC_STATE_WORDS.offline };
    case 'needs-you': {
      const n = s.reasons.filter((r) => needsYou(r.kind)).length;
      const signIn = s.reasons.some((r) => r.action === 'sign-in');
      return { icon: signIn ? 'error' : 'conflicts', text: `${SYNC_STATE_WORDS['needs-you']}${n > 1 ? ` (${n} things)` : ''}` };
    }
    case 'paused':
      return {
        icon: 'paused',
        text: `${SYNC_STATE_WORDS.paused}${s.editsWaiting > 0 ? ` · ${plural(s.editsWaiting, 'edit')} waiting` : ''}`,
      };
    case 'not-set-up':
      return { icon: 'paused', text: SYNC_STATE_WORDS['not-set-up'] };
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
  // The first reason in full, as the app's banner says it (the others are one click away, in the window).
  const why = s.reasons[0]?.message ?? s.message;
  return {
    icon,
    tooltip: `Quire — ${text}${pending}${why && s.state !== 'syncing' && s.state !== 'in-sync' ? `\n${why}` : ''}`,
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
