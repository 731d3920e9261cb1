/**
 * Tiny typed checkers for JSON answers: each says what the core relies on (the fields it
 * reads, with their types) and nothing more, so a server adding fields never fails them,
 * while one that sends the wrong shape is stopped at the client with a sentence naming
 * the field, instead of `Cannot read properties of undefined` deep inside sync.
 *
 *   const page = object({ id: string, pages: optional(array(lazy(() => page))) });
 *   page(JSON.parse(body), '');   // returns the value typed, or throws ShapeProblem
 */

/** Where the answer differs from what the core reads. Never quotes a value (it may be long, or hold a secret). */
export class ShapeProblem extends Error {
  constructor(
    readonly at: string,
    readonly expected: string,
    got: unknown,
  ) {
    super(`${at === '' ? 'the answer' : `\`${at}\``} is ${describe(got)} (expected ${expected})`);
    this.name = 'ShapeProblem';
  }
}

export type Check<T> = (value: unknown, at: string) => T;

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

const primitive =
  <T>(type: 'string' | 'number' | 'boolean', expected: string): Check<T> =>
  (value, at) => {
    if (typeof value !== type || (type === 'number' && !Number.isFinite(value))) throw new ShapeProblem(at, expected, value);
    return value as T;
  };

export const string: Check<string> = primitive('string', 'a string');
export const number: Check<number> = primitive('number', 'a number');
export const boolean: Check<boolean> = primitive('boolean', 'true or false');

/** Absent (or null, which servers send for "not set" too) or of `check`'s shape. */
export function optional<T>(check: Check<T>): Check<T | undefined> {
  return (value, at) => (value === undefined || value === null ? undefined : check(value, at));
}

export function array<T>(item: Check<T>): Check<T[]> {
  return (value, at) => {
    if (!Array.isArray(value)) throw new ShapeProblem(at, 'a list', value);
    for (const [i, v] of value.entries()) item(v, `${at}[${i}]`);
    return value as T[];
  };
}

type Shape = Record<string, Check<unknown>>;
type Checked<S extends Shape> = { [K in keyof S]: S[K] extends Check<infer T> ? T : never };

/** An object with at least these fields; other fields pass unchecked. */
export function object<S extends Shape>(shape: S): Check<Checked<S>> {
  return (value, at) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ShapeProblem(at, 'an object', value);
    const record = value as Record<string, unknown>;
    for (const [key, check] of Object.entries(shape)) check(record[key], at === '' ? key : `${at}.${key}`);
    return value as Checked<S>;
  };
}

/** For recursive shapes (a page's child pages). */
export function lazy<T>(make: () => Check<T>): Check<T> {
  return (value, at) => make()(value, at);
}

/** A paged list: `{ items: [...], next?: { page } }`. */
export function list<T>(item: Check<T>): Check<{ items: T[]; next?: { page: string } }> {
  return object({ items: array(item), next: optional(object({ page: string })) });
}
