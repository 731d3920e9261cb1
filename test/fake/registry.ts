/**
 * Fakes started in this process, so a test hook can fail the test during which one of them
 * recorded spec violations (see vitest-setup.ts).
 */
interface Tracked {
  url: string;
  violations: string[];
  closed: boolean;
}

const tracked = new Set<Tracked>();

export function trackFake(fake: Tracked): void {
  tracked.add(fake);
}

/**
 * Returns the violations recorded since the last call (one line per violation, prefixed with
 * the fake's URL), clears them, and forgets fakes that have been closed.
 */
export function takeUnreportedViolations(): string[] {
  const out: string[] = [];
  for (const fake of tracked) {
    for (const violation of fake.violations.splice(0)) out.push(`${fake.url}: ${violation}`);
    if (fake.closed) tracked.delete(fake);
  }
  return out;
}
