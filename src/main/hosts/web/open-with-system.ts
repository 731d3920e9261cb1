import { spawn } from 'node:child_process';
import { checkExternalUrl } from '../../../shared/external-url';

/**
 * The program that hands a URL or path to the desktop's default handler, and its arguments.
 * Never a shell: on Windows `cmd /c start` would read `&`, `|` or `^` in a URL (legal there) as
 * commands of its own, so the URL goes to rundll32's FileProtocolHandler as one argument.
 */
export function openerCommand(platform: NodeJS.Platform, target: string): { command: string; args: string[] } {
  if (platform === 'darwin') return { command: 'open', args: [target] };
  if (platform === 'win32') return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', target] };
  return { command: 'xdg-open', args: [target] };
}

/** Hands a URL to the desktop's default handler (the web host runs on the user's machine). */
function openDetached(target: string): Promise<void> {
  const { command, args } = openerCommand(process.platform, target);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { detached: true, stdio: 'ignore', shell: false, windowsHide: true });
    child.once('error', (e) => reject(new Error(`Could not start ${command} to open ${target}: ${e.message}. Open it yourself.`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

export function systemOpener(): { openExternal(url: string): Promise<void> } {
  return { openExternal: (url) => openDetached(checkExternalUrl(url)) };
}
