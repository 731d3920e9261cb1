/**
 * Which API address a user gave for each sync folder, kept in the user's own configuration
 * folder: never in the sync folder. A folder's mirror remembers its API address too, but the
 * mirror travels with the folder (copied, shared, edited with sqlite), so it cannot tell where a
 * token from the environment may go; this record can, since nothing in the folder can write it.
 *
 * One small file per folder, named by a hash of the folder's real path, written whole (a
 * temporary file renamed over it), private to the user (0700 folder, 0600 files).
 */
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export interface GivenAddresses {
  /** The API address this user last gave for `folder`, or null. */
  get(folder: string): string | null;
  /** `apiUrl` is the address this user gave for `folder` (with --api, or to a host started for it). */
  set(folder: string, apiUrl: string): void;
  /** The address this user last signed in to (`quire login`), or null: what a folder that never synced is told to sync with. */
  signedIn?(): string | null;
  setSignedIn?(apiUrl: string): void;
}

/**
 * The user's configuration folder for Quire: `$XDG_CONFIG_HOME/quire` when set (on any system),
 * else `%APPDATA%\Quire` on Windows, `~/Library/Application Support/Quire` on macOS and
 * `~/.config/quire` elsewhere.
 */
export function userConfigDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CONFIG_HOME) return join(env.XDG_CONFIG_HOME, 'quire');
  if (process.platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Quire');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Quire');
  return join(homedir(), '.config', 'quire');
}

/** The address last signed in to, beside the folders' entries (whose names are hashes). */
const SIGNED_IN_FILE = 'signed-in.json';

interface Entry {
  folder: string;
  apiUrl: string;
}

/** The record in files, under `dir` (default: `<userConfigDir>/api-addresses`). */
export class FileGivenAddresses implements GivenAddresses {
  constructor(private readonly dir = join(userConfigDir(), 'api-addresses')) {}

  get(folder: string): string | null {
    const real = realFolder(folder);
    try {
      const entry = JSON.parse(readFileSync(this.fileFor(real), 'utf8')) as Partial<Entry>;
      return entry.folder === real && typeof entry.apiUrl === 'string' ? entry.apiUrl : null;
    } catch {
      return null; // none yet, or unreadable: nothing was given
    }
  }

  set(folder: string, apiUrl: string): void {
    const real = realFolder(folder);
    this.write(this.fileFor(real), { folder: real, apiUrl } satisfies Entry);
  }

  signedIn(): string | null {
    try {
      const entry = JSON.parse(readFileSync(join(this.dir, SIGNED_IN_FILE), 'utf8')) as { apiUrl?: unknown };
      return typeof entry.apiUrl === 'string' ? entry.apiUrl : null;
    } catch {
      return null;
    }
  }

  setSignedIn(apiUrl: string): void {
    this.write(join(this.dir, SIGNED_IN_FILE), { apiUrl });
  }

  private write(file: string, entry: object): void {
    const temporary = `${file}.${process.pid}.tmp`;
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    try {
      writeFileSync(temporary, `${JSON.stringify(entry)}\n`, { flag: 'wx', mode: 0o600 });
      renameSync(temporary, file);
    } finally {
      rmSync(temporary, { force: true });
    }
  }

  private fileFor(realFolder: string): string {
    // node:crypto loaded when first needed: it loads node:stream, which commands that send nothing do without.
    const hash = process.getBuiltinModule('node:crypto').createHash('sha256').update(realFolder).digest('hex');
    return join(this.dir, `${hash.slice(0, 32)}.json`);
  }
}

/** The record in memory: tests, and hosts that keep nothing. */
export class MemoryGivenAddresses implements GivenAddresses {
  private readonly byFolder = new Map<string, string>();
  get(folder: string): string | null {
    return this.byFolder.get(realFolder(folder)) ?? null;
  }
  set(folder: string, apiUrl: string): void {
    this.byFolder.set(realFolder(folder), apiUrl);
  }
}

/** The folder's real path (links resolved), so two spellings of one folder are one entry. */
function realFolder(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return resolve(folder);
  }
}
