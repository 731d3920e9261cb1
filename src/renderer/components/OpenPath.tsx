import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import type { OpenedVM, Params } from '../../shared/contract';
import { useBridge } from '../hooks/bridge-context';
import { ErrorNotice } from './ErrorNotice';

type OpenRequest = 'app.openFolder' | 'pages.openInEditor' | 'conflicts.openInEditor';
type Open = <N extends OpenRequest>(name: N, params: Params<N>) => Promise<void>;

const OpenPathContext = createContext<Open | null>(null);

/**
 * "Open in editor" and "Open folder" for every view: the desktop app opens the file or folder;
 * a browser cannot start apps on the computer, so there the host answers with the absolute path
 * and this shows it, with a Copy button, and says why.
 */
export function OpenPathProvider({ children }: { children: ReactNode }) {
  const bridge = useBridge();
  const [shown, setShown] = useState<{ path: string; folder: boolean } | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const open = useCallback<Open>(
    async (name, params) => {
      setError(null);
      try {
        const result = (await bridge.request(name, params)) as OpenedVM;
        if (!result.opened) setShown({ path: result.path, folder: name === 'app.openFolder' });
      } catch (e) {
        setError(e instanceof Error ? e : new Error(String(e)));
      }
    },
    [bridge],
  );
  return (
    <OpenPathContext.Provider value={open}>
      {children}
      {error && (
        <div className="open-path-error">
          <ErrorNotice error={error} onDismiss={() => setError(null)} />
        </div>
      )}
      {shown && <PathDialog path={shown.path} folder={shown.folder} onClose={() => setShown(null)} />}
    </OpenPathContext.Provider>
  );
}

export function useOpenPath(): Open {
  const open = useContext(OpenPathContext);
  if (!open) throw new Error('useOpenPath needs an OpenPathProvider');
  return open;
}

function PathDialog({ path, folder, onClose }: { path: string; folder: boolean; onClose(): void }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const code = useRef<HTMLElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(path);
      setCopied('yes');
    } catch {
      // No clipboard access (an insecure origin, a denied permission): select it for Ctrl+C.
      const range = document.createRange();
      if (code.current) range.selectNodeContents(code.current);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
      setCopied('failed');
    }
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a click on the backdrop closes the dialog; Escape does the same from the keyboard.
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="dialog open-path"
        role="dialog"
        aria-modal="true"
        aria-labelledby="open-path-title"
        data-testid="open-path"
        onKeyDown={(e) => e.key === 'Escape' && onClose()}
      >
        <h2 id="open-path-title">{folder ? 'Open the folder yourself' : 'Open the file in your editor'}</h2>
        <p>
          A browser cannot open apps on your computer, so Quire shows the path here instead. Copy it into your {folder ? 'file manager' : 'editor'}
          {' — '}the Quire desktop app opens it for you.
        </p>
        <div className="path-row">
          <code ref={code} data-testid="open-path-value">
            {path}
          </code>
          <button type="button" className="primary" onClick={() => void copy()}>
            Copy
          </button>
        </div>
        <p className="muted small" role="status">
          {copied === 'yes' ? 'Copied to the clipboard.' : copied === 'failed' ? 'The browser refused the clipboard: the path is selected, press Ctrl+C.' : ''}
        </p>
        <div className="dialog-actions">
          <button type="button" ref={close} onClick={onClose}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
