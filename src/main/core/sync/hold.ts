/**
 * The mass-delete fail-safe's hold, said plainly: what the cycle would have deleted. Each host
 * adds what to do in its own terms (the CLI: \`--allow-deletes\`; the app: its buttons).
 */
import type { MassDeleteHold } from './plan';

/** What the fail-safe stopped, e.g. "Stopped before deleting most of “Guide”: this sync would delete 5 of its 8 pages on the server (…)." */
export function describeMassDelete(hold: MassDeleteHold, space: { title: string; folder: string | null }): string {
  const parts = [
    hold.localDeletes ? `${hold.localDeletes} of its ${hold.pages} pages on the server (their files are gone from ${space.folder ?? 'its folder'})` : '',
    hold.remoteDeletes ? `${hold.remoteDeletes} of its ${hold.pages} page files here (deleted on the server)` : '',
  ].filter(Boolean);
  return `Stopped before deleting most of “${space.title}”: this sync would delete ${parts.join(' and ')}.`;
}
