/** One way to write a time, in every host (issue 28, item 7): relative while recent, else local with the zone. */
import { describe, expect, it } from 'vitest';
import { localTime, retryTime, when } from '../../src/shared/when';

const now = Date.parse('2026-12-01T22:50:30Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('a time', () => {
  it('is relative while recent, past or future', () => {
    expect(when(ago(10_000), now)).toBe('just now');
    expect(when(ago(12 * 60_000), now)).toBe('12 min ago');
    expect(when(ago(3 * 3600_000), now)).toBe('3 h ago');
    expect(when(ago(-5 * 60_000), now)).toBe('in 5 min');
  });

  it('is the local date and time with the zone once it is a day old; never raw ISO', () => {
    const old = ago(3 * 86_400_000);
    expect(when(old, now)).toBe(localTime(old));
    expect(when(old, now)).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d [A-Z][\w+:-]*$/);
    expect(when(null, now)).toBe('an unknown time');
  });

  it('says the zone of the machine, not UTC, where the machine is elsewhere', () => {
    const zone = process.env.TZ;
    const inZone = (tz: string) => {
      process.env.TZ = tz;
      return localTime('2026-07-01T22:50:00Z');
    };
    try {
      expect(inZone('UTC')).toBe('2026-07-01 22:50 UTC');
      expect(inZone('America/New_York')).toBe('2026-07-01 18:50 EDT');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it('of a retry: when it is due, or with the next try once it is', () => {
    expect(retryTime(ago(-10 * 60_000), now)).toBe('in 10 min');
    expect(retryTime(ago(-3 * 86_400_000), now)).toMatch(/^at \d{4}-/);
    expect(retryTime(ago(60_000), now)).toBe('with the next try');
  });
});
