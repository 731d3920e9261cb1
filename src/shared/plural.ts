/** A count with its noun, as every host prints counts, singular or plural: `1 page`, `2 pages`, `3 replies` (give the plural when it is not `one` + s). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
