import type { FakeBridge } from './fake-bridge';

/** What tests drive through `page.evaluate` (DOM-free, so the node project can name it). */
export interface Harness {
  bridge: FakeBridge;
  mount(): void;
  unmount(): void;
  reset(): FakeBridge;
}
