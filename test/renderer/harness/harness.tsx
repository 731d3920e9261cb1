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
    root.render(<App bridge={bridge} />);
  },
  unmount() {
    root?.unmount();
    root = null;
  },
};

(window as unknown as { harness: Harness }).harness = harness;
