/**
 * The renderer's web preferences: isolated, sandboxed, no Node, only the
 * preload's narrow contract. Kept here, free of electron imports, so a test
 * can pin every flag.
 */
export function secureWebPreferences(preloadPath: string) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    safeDialogs: true,
  } as const;
}

/** Navigation the window allows: none. Links are opened through `app.openExternal` instead. */
export function mayNavigate(_url: string): boolean {
  return false;
}

/** The part of an Electron session whose permission answers Quire sets (structural, so a test needs no Electron). */
export interface PermissionGate {
  setPermissionRequestHandler(handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void) => void): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string, requestingOrigin: string) => boolean): void;
}

/**
 * The window needs no permission: every request (camera, microphone, notifications from the
 * page, clipboard, MIDI, …) is denied, and so is every check — without a check handler
 * Electron answers some checks (`navigator.permissions.query`, clipboard reads) on its own.
 * Notifications come from the main process, which this does not touch.
 */
export function denyAllPermissions(session: PermissionGate): void {
  session.setPermissionRequestHandler((_webContents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
