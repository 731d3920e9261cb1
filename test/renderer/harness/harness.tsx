import { flushSync } from 'react-dom';
import { createRoot, type Root } from 'react-dom/client';
import { App } from '../../../src/renderer/App';
import '../../../src/renderer/styles/index.css';
import { FakeBridge } from './fake-bridge';
import type { Harness } from './harness-api';

let root: Root | null = null;
let bridge = new FakeBridge();

const harness: Harness = {
  get bridge() {
    return bridge;
  },
  reset() {
    harness.unmount();
    bridge = new FakeBridge();
    window.location.hash = '';
    return bridge;
  },
  mount() {
    root = createRoot(document.getElementById('root')!);
    // Rendered, and its effects run, before mount returns: the app listens for the host's events
    // by then, as it does before a real host sends any (an event a test sent earlier was lost).
    const mounted = root;
    flushSync(() => mounted.render(<App bridge={bridge} />));
  },
  unmount() {
    root?.unmount();
    root = null;
  },
};

(window as unknown as { harness: Harness }).harness = harness;
