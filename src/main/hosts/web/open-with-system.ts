import { spawn } from 'node:child_process';
import { checkExternalUrl } from '../../../shared/external-url';

/** Hands a URL or path to the desktop's default handler (the web host runs on the user's machine). */
function openDetached(target: string): Promise<void> {
  const [cmd, args] =
    process.platform === 'darwin' ? ['open', [target]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', target]] : ['xdg-open', [target]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args as string[], { detached: true, stdio: 'ignore' });
    child.once('error', (e) => reject(new Error(`Could not start ${cmd} to open ${target}: ${e.message}. Open it yourself.`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

export function systemOpener(): { openExternal(url: string): Promise<void>; openPath(path: string): Promise<void> } {
  return {
    openExternal: (url) => openDetached(checkExternalUrl(url)),
    openPath: (path) => openDetached(path),
  };
}
