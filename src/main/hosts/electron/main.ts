/**
 * The desktop host: one window, a tray, notifications, IPC carrying the
 * contract. Thin on purpose: decisions live in electron-free modules
 * (ipc-guard, tray-state, notices, window-options) tested in plain Node.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, protocol, shell, Tray } from 'electron';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IPC_EVENT_CHANNEL, REQUEST_NAMES, ipcChannel, type PushedEvent } from '../../../shared/contract';
import { contentSecurityPolicy } from '../../../shared/csp';
import { clipText } from '../../../shared/clip-text';
import { checkExternalUrl } from '../../../shared/external-url';
import { KeytarTokenStore } from '../../core/secrets';
import { createQuireService, type QuireService, readStatic } from '../service';
import { APP_ORIGIN, handleIpcMessage } from './ipc-guard';
import { Notifier } from './notices';
import { loadSettings, saveSettings } from './settings-file';
import { trayIconPng } from './tray-icon';
import { trayModel, type TrayIconState } from './tray-state';
import { denyAllPermissions, mayNavigate, secureWebPreferences } from './window-options';

const here = fileURLToPath(new URL('.', import.meta.url));
const RENDERER_DIR = join(here, '../renderer');
const PRELOAD = join(here, '../preload/preload.cjs');
const DEFAULT_API = process.env.QUIRE_API_URL ?? 'https://api.gitbook.com';
const log = (line: string) => process.stderr.write(`[quire] ${line}\n`);

protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true } }]);

let win: BrowserWindow | null = null;
let tray: Tray | null = null;
let service: QuireService | null = null;
let stopping = false;

function showWindow(): void {
  if (!win) win = createWindow();
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}

function createWindow(): BrowserWindow {
  const w = new BrowserWindow({
    width: 1240,
    height: 820,
    minWidth: 760,
    minHeight: 520,
    show: false,
    title: 'Quire',
    webPreferences: secureWebPreferences(PRELOAD),
  });
  w.once('ready-to-show', () => w.show());
  w.on('closed', () => {
    win = null;
  });
  void w.loadURL(`${APP_ORIGIN}/index.html`);
  return w;
}

/** Serves the built renderer on app://quire with the strict CSP; nothing outside the renderer folder. */
function registerAppProtocol(): void {
  const csp = contentSecurityPolicy();
  protocol.handle('app', async (request) => {
    const url = new URL(request.url);
    if (`app://${url.host}` !== APP_ORIGIN) return new Response('Not found', { status: 404 });
    const file = await readStatic(RENDERER_DIR, url.pathname);
    if (!file) return new Response('Not found', { status: 404 });
    return new Response(new Uint8Array(file.body), {
      headers: { 'Content-Type': file.type, 'Content-Security-Policy': csp, 'X-Content-Type-Options': 'nosniff' },
    });
  });
}

function registerIpc(svc: QuireService): void {
  for (const name of REQUEST_NAMES) {
    const channel = ipcChannel(name);
    ipcMain.handle(channel, (event, payload: unknown) =>
      handleIpcMessage(
        svc,
        channel,
        payload,
        {
          frameUrl: event.senderFrame?.url ?? null,
          isMainFrame: !!event.senderFrame && event.senderFrame.parent === null,
          isOwnWindow: !!win && event.sender === win.webContents,
        },
        log,
      ),
    );
  }
}

function lockDownContents(): void {
  app.on('web-contents-created', (_e, contents) => {
    contents.on('will-navigate', (e, url) => {
      if (!mayNavigate(url)) {
        e.preventDefault();
        log(`blocked navigation to ${clipText(url, 101)}`);
      }
    });
    contents.on('will-redirect', (e) => e.preventDefault());
    contents.on('will-attach-webview', (e) => e.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      try {
        void shell.openExternal(checkExternalUrl(url));
      } catch (err) {
        log(`refused to open ${clipText(url, 101)}: ${err instanceof Error ? err.message : String(err)}`);
      }
      return { action: 'deny' };
    });
    denyAllPermissions(contents.session);
  });
}

function trayImage(state: TrayIconState) {
  const image = nativeImage.createFromBuffer(trayIconPng(state, 16));
  image.addRepresentation({ scaleFactor: 2, buffer: trayIconPng(state, 32) });
  return image;
}

function updateTray(svc: QuireService, settingsFolder: () => string): void {
  const model = trayModel(svc.status());
  win?.setProgressBar(model.progress);
  if (!tray) return;
  tray.setImage(trayImage(model.icon));
  tray.setToolTip(model.tooltip);
  const actions: Record<string, () => void> = {
    'sync-now': () => void svc.request('sync.now', {}).catch((e: unknown) => log(String(e))),
    'open-folder': () => void shell.openPath(settingsFolder()),
    pause: () => void svc.request('sync.setPaused', { paused: !svc.status().paused }),
    show: showWindow,
    quit: () => app.quit(),
  };
  tray.setContextMenu(
    Menu.buildFromTemplate(
      model.menu.map((item) =>
        item.id === 'separator' ? { type: 'separator' as const } : { label: item.label, enabled: item.enabled, click: actions[item.id] },
      ),
    ),
  );
}

async function start(): Promise<void> {
  const settingsFile = join(app.getPath('userData'), 'settings.json');
  const settings = loadSettings(settingsFile);
  registerAppProtocol();
  lockDownContents();
  // QUIRE_DIR and QUIRE_TOKEN let `npm run demo` point the app at the sample API; the token is used, never stored.
  const svc = await createQuireService({
    apiUrl: DEFAULT_API,
    folder: process.env.QUIRE_DIR ?? settings.folder,
    token: process.env.QUIRE_TOKEN || undefined,
    notifications: settings.notifications,
    tokens: new KeytarTokenStore(),
    log,
    onSettingsChange: (next) => {
      Object.assign(settings, next);
      saveSettings(settingsFile, settings);
    },
    host: {
      kind: 'electron',
      openExternal: (url) => shell.openExternal(checkExternalUrl(url)),
      openPath: async (path) => {
        const error = await shell.openPath(path);
        if (error) throw new Error(`Could not open ${path}: ${error}`);
      },
      chooseFolder: async () => {
        const options = {
          title: 'Choose the sync folder',
          properties: ['openDirectory' as const, 'createDirectory' as const],
          defaultPath: settings.folder,
        };
        const result = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
        return result.canceled ? null : (result.filePaths[0] ?? null);
      },
    },
  });
  service = svc;
  registerIpc(svc);

  const notifier = new Notifier(
    (n) => {
      if (!Notification.isSupported()) return;
      const note = new Notification({ title: n.title, body: n.body, silent: false });
      note.on('click', showWindow);
      note.show();
    },
    () => settings.notifications,
  );
  const snapshot = svc.attentionSnapshot();
  if (snapshot) notifier.update(snapshot);

  svc.subscribe((event: PushedEvent) => {
    win?.webContents.send(IPC_EVENT_CHANNEL, event);
    if (event.name === 'sync.status') updateTray(svc, () => settings.folder);
    if (event.name === 'data.changed' && (event.payload.areas.includes('review') || event.payload.areas.includes('conflicts'))) {
      const next = svc.attentionSnapshot();
      if (next) notifier.update(next);
    }
  });

  tray = new Tray(trayImage('idle'));
  tray.on('click', showWindow);
  updateTray(svc, () => settings.folder);
  showWindow();
}

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', showWindow);
  app.on('window-all-closed', () => {
    // Keep syncing in the tray; "Quit" in the tray menu stops the app.
  });
  app.on('activate', showWindow);
  app.on('before-quit', (e) => {
    if (stopping || !service) return;
    e.preventDefault();
    stopping = true;
    // Let the sync core finish its transaction before leaving.
    void service.close().finally(() => app.exit(0));
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      log(`could not start: ${e instanceof Error ? e.message : String(e)}`);
      app.exit(1);
    });
}
