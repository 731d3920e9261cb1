export type DiffLine = { kind: 'same' | 'added' | 'removed'; text: string };

/**
 * Line diff by longest common subsequence, for showing a page's change.
 * Common head and tail are trimmed first; past `maxCells` of LCS table the
 * middle is shown as removed-then-added rather than spending seconds on it.
 */
export function lineDiff(before: string, after: string, maxCells = 4_000_000): DiffLine[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after === '' ? [] : after.split('\n');
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const out: DiffLine[] = a.slice(0, head).map((text) => ({ kind: 'same', text }));
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length * midB.length > maxCells) {
    out.push(...midA.map((text) => ({ kind: 'removed' as const, text })), ...midB.map((text) => ({ kind: 'added' as const, text })));
  } else {
    const n = midA.length;
    const m = midB.length;
    const lcs = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i]![j] = midA[i] === midB[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        out.push({ kind: 'same', text: midA[i]! });
        i++;
        j++;
      } else if (i < n && (j === m || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) {
        out.push({ kind: 'removed', text: midA[i]! });
        i++;
      } else {
        out.push({ kind: 'added', text: midB[j]! });
        j++;
      }
    }
  }
  out.push(...a.slice(a.length - tail).map((text) => ({ kind: 'same' as const, text })));
  return out;
}
