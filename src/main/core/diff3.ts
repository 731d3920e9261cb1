/**
 * node-diff3, loaded the first time a text is compared or merged: `quire status`, and a sync with
 * nothing to merge, start sooner without it.
 */
import { createRequire } from 'node:module';

type Diff3 = typeof import('node-diff3');

let loaded: Diff3 | undefined;

export const diff3 = (): Diff3 => (loaded ??= createRequire(import.meta.url)('node-diff3') as Diff3);
