import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A new temp folder, removed after the test file that made it (test/fake/vitest-setup.ts). */
export function tempDir(prefix = 'quire-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes the temp folders made so far (what cannot be removed, a process still writing in it, stays). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 2 });
    } catch {
      // left behind in the system's temp folder
    }
  }
}
