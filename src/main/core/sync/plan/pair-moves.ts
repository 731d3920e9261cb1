/**
 * Which files that appeared are files that vanished, moved or renamed: the same text first
 * (same bytes, or the same meaning to the server), then a title that one vanished page and one
 * new file hold alone. Every other new file is a new page; every other vanished file is gone.
 */
import { pageTitleOf } from '../../content';

export interface Vanished {
  key: string;
  path: string;
  /** What its file held when last seen (for comparing), if known. */
  text: string | null;
}

export interface Appeared {
  path: string;
  text: string;
}

const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);

export function pairMoves(vanished: readonly Vanished[], appeared: readonly Appeared[], same: (a: string, b: string) => boolean): Map<string, Appeared> {
  const pairs = new Map<string, Appeared>();
  const taken = new Set<string>();
  const sorted = [...appeared].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const file of sorted) {
    const candidates = vanished.filter((v) => !pairs.has(v.key) && v.text !== null && same(v.text, file.text));
    const choice = candidates.find((v) => base(v.path) === base(file.path)) ?? candidates[0];
    if (choice) {
      pairs.set(choice.key, file);
      taken.add(file.path);
    }
  }
  const byTitle = <T>(items: T[], title: (item: T) => string | null) => {
    const map = new Map<string, T[]>();
    for (const item of items) {
      const t = title(item);
      if (t) map.set(t, [...(map.get(t) ?? []), item]);
    }
    return map;
  };
  const vanishedByTitle = byTitle(
    vanished.filter((v) => !pairs.has(v.key)),
    (v) => (v.text === null ? null : pageTitleOf(v.text)),
  );
  const filesByTitle = byTitle(
    sorted.filter((f) => !taken.has(f.path)),
    (f) => pageTitleOf(f.text),
  );
  for (const [title, pages] of vanishedByTitle) {
    const files = filesByTitle.get(title);
    if (pages.length === 1 && files?.length === 1) pairs.set(pages[0]!.key, files[0]!);
  }
  return pairs;
}
