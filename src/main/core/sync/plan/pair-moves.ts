/**
 * Which files that appeared are files that vanished, moved or renamed: the same text first
 * (same bytes, or the same meaning to the server), then a title that one vanished page and one
 * new file hold alone, then nearly the same text (a file renamed and edited a little: most of
 * its lines unchanged, and no other pair as close). Every other new file is a new page; every
 * other vanished file is gone.
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

/**
 * Share of lines two texts have in common for them to be one page renamed and edited (Dice
 * coefficient of their non-blank lines); less for two texts with the same title.
 */
export const NEARLY_SAME = 0.8;
const NEARLY_SAME_TITLED = 0.5;
/** Past this many comparisons, nearly-same pairing is not tried (each compares two texts line by line). */
const MAX_COMPARISONS = 10_000;

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
    if (pages.length === 1 && files?.length === 1) {
      pairs.set(pages[0]!.key, files[0]!);
      taken.add(files[0]!.path);
    }
  }
  const near = pairNearlySame(
    vanished.filter((v) => !pairs.has(v.key)),
    sorted.filter((f) => !taken.has(f.path)),
  );
  for (const [key, file] of near) pairs.set(key, file);
  return pairs;
}

/**
 * Pairs whose texts are nearly the same (at least NEARLY_SAME of their lines shared, or half of
 * them under the same title), closest first; a pair is taken only when neither side is as close
 * to anything else (a tie pairs nothing: it is a guess).
 */
export function pairNearlySame(vanished: readonly Vanished[], appeared: readonly Appeared[]): Map<string, Appeared> {
  const pairs = new Map<string, Appeared>();
  const known = vanished.filter((v) => v.text !== null);
  if (known.length === 0 || appeared.length === 0 || known.length * appeared.length > MAX_COMPARISONS) return pairs;
  const linesOf = new Map<string, Map<string, number>>();
  const lines = (text: string): Map<string, number> => {
    let counted = linesOf.get(text);
    if (!counted) {
      counted = new Map();
      for (const line of text.split('\n')) {
        const l = line.trim();
        if (l !== '') counted.set(l, (counted.get(l) ?? 0) + 1);
      }
      linesOf.set(text, counted);
    }
    return counted;
  };
  const titles = new Map<string, string | null>();
  const titleOf = (text: string): string | null => {
    if (!titles.has(text)) titles.set(text, pageTitleOf(text));
    return titles.get(text) ?? null;
  };
  const scored: { key: string; file: Appeared; score: number }[] = [];
  for (const v of known) {
    for (const file of appeared) {
      const score = dice(lines(v.text!), lines(file.text));
      const title = titleOf(v.text!);
      if (score >= NEARLY_SAME || (score >= NEARLY_SAME_TITLED && title !== null && title === titleOf(file.text))) scored.push({ key: v.key, file, score });
    }
  }
  scored.sort((a, b) => b.score - a.score || (a.file.path < b.file.path ? -1 : 1) || (a.key < b.key ? -1 : 1));
  const usedFiles = new Set<string>();
  for (const s of scored) {
    if (pairs.has(s.key) || usedFiles.has(s.file.path)) continue;
    const rival = scored.find(
      (o) => o !== s && o.score === s.score && !pairs.has(o.key) && !usedFiles.has(o.file.path) && (o.key === s.key || o.file.path === s.file.path),
    );
    if (rival) continue;
    pairs.set(s.key, s.file);
    usedFiles.add(s.file.path);
  }
  return pairs;
}

/** 2·|A∩B| / (|A|+|B|) over two multisets of lines. */
function dice(a: Map<string, number>, b: Map<string, number>): number {
  let sizeA = 0;
  let sizeB = 0;
  let shared = 0;
  for (const n of a.values()) sizeA += n;
  for (const [line, n] of b) {
    sizeB += n;
    shared += Math.min(n, a.get(line) ?? 0);
  }
  return sizeA + sizeB === 0 ? 0 : (2 * shared) / (sizeA + sizeB);
}
