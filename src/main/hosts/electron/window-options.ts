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
