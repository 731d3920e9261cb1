/**
 * Which folders may be a sync folder. Quire writes `.quire/` and one folder per space into it,
 * and treats what it finds there as the writer's: the root of the file system or a home folder
 * itself (the user's own, `$HOME`, or any account's in /etc/passwd: root's, a service's) would
 * put Quire's state and the spaces among everything else there. A folder inside one is fine.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, parse, resolve } from 'node:path';

/** A folder Quire will not sync into; the message says which and what to give instead. */
export class UnsafeSyncFolderError extends Error {
  override name = 'UnsafeSyncFolderError';

  constructor(
    readonly folder: string,
    message: string,
  ) {
    super(message);
  }
}

/** The folder as the file system knows it: links resolved for the part that exists. */
function canonical(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    const parent = dirname(absolute);
    return parent === absolute ? absolute : resolve(canonical(parent), absolute.slice(parent.length + 1));
  }
}

/** Home folders: the user's ($HOME and the OS's answer) and every account's in /etc/passwd. */
function homeFolders(env: NodeJS.ProcessEnv): Map<string, string> {
  const homes = new Map<string, string>();
  const add = (path: string | undefined, whose: string) => {
    if (!path || path.trim() === '') return;
    const key = canonical(path);
    if (!homes.has(key)) homes.set(key, whose); // the first to name it: the user's own, then passwd's order
  };
  add(env.HOME, 'your home folder');
  add(homedir(), 'your home folder');
  let passwd = '';
  try {
    passwd = readFileSync('/etc/passwd', 'utf8');
  } catch {
    // Not a Unix system, or not readable: the user's own home still counts.
  }
  for (const line of passwd.split('\n')) {
    const fields = line.split(':');
    if (fields.length >= 7) add(fields[5], `${fields[0]}'s home folder`);
  }
  return homes;
}

/**
 * Throws UnsafeSyncFolderError when `folder` is the root of a file system or a home folder
 * itself; `env` gives $HOME (the process's by default).
 */
export function refuseSyncFolder(folder: string, env: NodeJS.ProcessEnv = process.env): void {
  const path = canonical(folder);
  const suggestion = resolve(homedir(), 'Docs');
  if (parse(path).root === path) {
    throw new UnsafeSyncFolderError(
      folder,
      `${folder} is the root of the file system: Quire writes its own .quire folder and a folder per space into the sync folder, so give it a folder of its own, such as ${suggestion}.`,
    );
  }
  const whose = homeFolders(env).get(path);
  if (whose) {
    throw new UnsafeSyncFolderError(
      folder,
      `${folder} is ${whose}: Quire writes its own .quire folder and a folder per space into the sync folder, so give it a folder of its own inside it, such as ${resolve(path, 'Docs')}.`,
    );
  }
}
