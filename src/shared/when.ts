/**
 * A time as every host writes it — `quire status`, `quire log`, `quire history`, the app: relative
 * while recent ("just now", "12 min ago", "3 h ago", "in 5 min"), otherwise the local date and
 * time with the zone ("2026-12-01 22:50 CET"). Scripts read the ISO times of `--json` instead.
 */
export function when(iso: string | null | undefined, now: number = Date.now()): string {
  if (!iso) return 'an unknown time';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (Math.abs(s) < 45) return 'just now';
  const m = Math.round(Math.abs(s) / 60);
  const h = Math.round(m / 60);
  const span = m < 60 ? `${m} min` : h < 24 ? `${h} h` : null;
  if (span === null) return localTime(t);
  return s > 0 ? `${span} ago` : `in ${span}`;
}

/** The local date and time with the zone, to the minute: `2026-12-01 22:50 CET` (`UTC` where the clock is). */
export function localTime(t: number | string): string {
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) return String(t);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())} ${zoneName(d)}`;
}

/** The local zone's short name at that date (`CET`, `CEST`, `GMT+1`; `UTC` when the clock keeps UTC). */
function zoneName(d: Date): string {
  const name = new Intl.DateTimeFormat('en-US', { timeZoneName: 'short' }).formatToParts(d).find((p) => p.type === 'timeZoneName')?.value ?? 'UTC';
  return name === 'GMT' && d.getTimezoneOffset() === 0 ? 'UTC' : name;
}

/** When something waiting is tried again: "in 5 min", "at 2026-12-02 09:00 CET", or "with the next try" once due. */
export function retryTime(iso: string | null | undefined, now: number = Date.now()): string {
  const t = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(t) || t - now < 45_000) return 'with the next try';
  const words = when(iso, now);
  return words.startsWith('in ') ? words : `at ${words}`;
}
