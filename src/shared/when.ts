/** An ISO time as `2026-01-02 14:05 UTC`: the same in every host, whatever its time zone. */
export function when(iso: string | null): string {
  if (!iso) return 'an unknown time';
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}
