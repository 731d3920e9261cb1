import { clipText } from '../../shared/clip-text';
import { when } from '../../shared/when';

/** A time as every host writes it (shared/when.ts): "3 min ago" while recent, else the local date and time with the zone; "never" for none. */
export function timeAgo(iso: string | null | undefined, now = Date.now()): string {
  return iso ? when(iso, now) : 'never';
}

export { plural } from '../../shared/plural';

/** First line of a markdown body, for one-line list rows. */
export function firstLine(markdown: string, max = 140): string {
  const line = markdown.split('\n').find((l) => l.trim() !== '') ?? '';
  return clipText(line, max);
}
