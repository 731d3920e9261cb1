import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface DesktopSettings {
  folder: string;
  notifications: boolean;
}

const defaultSettings = (): DesktopSettings => ({ folder: join(homedir(), 'Quire'), notifications: true });

/** The desktop app's own settings (sync folder, notifications), in its user-data folder. Never the token. */
export function loadSettings(file: string): DesktopSettings {
  const defaults = defaultSettings();
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<DesktopSettings>;
    return {
      folder: typeof parsed.folder === 'string' && parsed.folder ? parsed.folder : defaults.folder,
      notifications: typeof parsed.notifications === 'boolean' ? parsed.notifications : defaults.notifications,
    };
  } catch {
    return defaults;
  }
}

export function saveSettings(file: string, settings: DesktopSettings): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(settings, null, 2));
  renameSync(tmp, file);
}
