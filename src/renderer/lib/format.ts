import { clipText } from '../../shared/clip-text';

/** "3 min ago", "yesterday", or a date: short enough for list rows. */
export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 24) return `${h} h ago`;
  const d = Math.round(h / 24);
  if (d === 1) return 'yesterday';
  if (d < 30) return `${d} days ago`;
  return new Date(t).toLocaleDateString();
}

export { plural } from '../../shared/plural';

/** First line of a markdown body, for one-line list rows. */
export function firstLine(markdown: string, max = 140): string {
  const line = markdown.split('\n').find((l) => l.trim() !== '') ?? '';
  return clipText(line, max);
}
