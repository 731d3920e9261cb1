/**
 * Vitest setup file: fails the current test when a fake API recorded spec violations during it
 * (a request the spec rejects, an unknown route, or a response that breaks the spec).
 * Tests that provoke violations on purpose must consume them with `fake.takeViolations()`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { takeUnreportedViolations } from './registry';

// What Quire keeps in the user's configuration folder (the API address given for each sync folder) goes to a
// folder of this test file's own, for the commands it runs in process and those it spawns: never the real one.
process.env.XDG_CONFIG_HOME = mkdtempSync(join(tmpdir(), 'quire-config-'));

afterEach(() => {
  const violations = takeUnreportedViolations();
  if (violations.length > 0) {
    throw new Error(
      `The fake API recorded ${violations.length} OpenAPI violation(s) during this test:\n` +
        violations.map((v) => `  - ${v}`).join('\n') +
        '\nFix the request (or the fake, if its answer is wrong); consume intended ones with fake.takeViolations().',
    );
  }
});
