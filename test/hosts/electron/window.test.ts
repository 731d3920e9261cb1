import { inflateSync } from 'node:zlib';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { denyAllPermissions, mayNavigate, type PermissionGate, secureWebPreferences } from '../../../src/main/hosts/electron/window-options';
import { openerCommand } from '../../../src/main/hosts/web/open-with-system';
import { trayIconPng } from '../../../src/main/hosts/electron/tray-icon';
import { loadSettings, saveSettings } from '../../../src/main/hosts/electron/settings-file';
import { checkExternalUrl } from '../../../src/shared/external-url';
import { contentSecurityPolicy } from '../../../src/shared/csp';

describe('window security', () => {
  it('isolates and sandboxes the renderer with Node off', () => {
    expect(secureWebPreferences('/app/preload.cjs')).toMatchObject({
      preload: '/app/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(mayNavigate('https://example.com')).toBe(false);
    expect(mayNavigate('app://quire/index.html')).toBe(false);
  });

  it('denies every permission request and every permission check (issue 9, item 10)', () => {
    let request: Parameters<PermissionGate['setPermissionRequestHandler']>[0] | null = null;
    let check: Parameters<PermissionGate['setPermissionCheckHandler']>[0] | null = null;
    denyAllPermissions({ setPermissionRequestHandler: (h) => (request = h), setPermissionCheckHandler: (h) => (check = h) });
    for (const permission of ['media', 'notifications', 'clipboard-read', 'clipboard-sanitized-write', 'geolocation', 'midiSysex', 'openExternal']) {
      const answers: boolean[] = [];
      request!(null, permission, (granted) => answers.push(granted));
      expect(answers, permission).toEqual([false]);
      expect(check!(null, permission, 'app://quire'), permission).toBe(false);
    }
  });

  it('opens links and files without a shell on every platform, a URL staying one argument (issue 9, item 10)', () => {
    const url = 'https://docs.example.com/a?b=1&calc.exe|whoami^x';
    expect(openerCommand('win32', url)).toEqual({ command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', url] });
    expect(openerCommand('darwin', url)).toEqual({ command: 'open', args: [url] });
    expect(openerCommand('linux', url)).toEqual({ command: 'xdg-open', args: [url] });
    for (const platform of ['win32', 'darwin', 'linux'] as const) expect(openerCommand(platform, url).command).not.toMatch(/^(cmd|powershell|sh|bash)/i);
  });

  it('has a CSP without inline script, remote content or framing', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-(inline|eval)|https?:/);
  });

  it('opens only http(s) links without credentials', () => {
    expect(checkExternalUrl('https://docs.example.com/a?b=1')).toBe('https://docs.example.com/a?b=1');
    expect(checkExternalUrl('http://localhost:3000/')).toBe('http://localhost:3000/');
    for (const bad of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'ms-settings:', 'https://user:pw@example.com', 'not a url']) {
      expect(() => checkExternalUrl(bad), bad).toThrow(/Quire (only opens|does not open)|not a web address/);
    }
  });
});

describe('tray icon', () => {
  it('draws a PNG of the requested size with the state colour', () => {
    const png = trayIconPng('error', 16);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(16);
    const idat = png.indexOf('IDAT');
    const raw = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
    const center = 8 * (16 * 4 + 1) + 1 + 8 * 4;
    expect([...raw.subarray(center, center + 4)]).toEqual([196, 41, 28, 255]);
    expect(trayIconPng('idle', 32).readUInt32BE(16)).toBe(32);
  });
});

describe('desktop settings', () => {
  it('round-trips folder and notifications, falling back to defaults on a broken file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-settings-'));
    const file = join(dir, 'settings.json');
    expect(loadSettings(file).notifications).toBe(true);
    saveSettings(file, { folder: '/data/docs', notifications: false });
    expect(loadSettings(file)).toEqual({ folder: '/data/docs', notifications: false });
    expect(readFileSync(file, 'utf8')).not.toMatch(/token/i);
  });
});
