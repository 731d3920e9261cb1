/**
 * A tiny runtime schema language for the contract's request parameters.
 * Hosts parse every incoming payload with these before acting, and the
 * static parameter types are inferred from the same values, so the shape
 * checked at runtime and the shape the compiler knows cannot drift apart.
 * Objects are strict: unknown keys are refused, not ignored.
 */

export class SchemaError extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path || 'payload'}: ${reason}`);
    this.name = 'SchemaError';
  }
}

export interface Schema<T> {
  parse(value: unknown, path?: string): T;
  /** Marks the key optional when used inside `object`. */
  readonly optional?: boolean;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

const describe = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'string' ? 'a string' : typeof v);

interface StringOptions {
  min?: number;
  max?: number;
  pattern?: RegExp;
}

export function string(opts: StringOptions = {}): Schema<string> {
  const { min = 0, max = 10_000, pattern } = opts;
  return {
    parse(v, path = '') {
      if (typeof v !== 'string') throw new SchemaError(path, `expected a string, got ${describe(v)}`);
      if (v.length < min) throw new SchemaError(path, `must be at least ${min} characters`);
      if (v.length > max) throw new SchemaError(path, `must be at most ${max} characters`);
      if (pattern && !pattern.test(v)) throw new SchemaError(path, `has an unexpected format`);
      return v;
    },
  };
}

export function number(opts: { min?: number; max?: number; integer?: boolean } = {}): Schema<number> {
  const { min = -Number.MAX_VALUE, max = Number.MAX_VALUE, integer = false } = opts;
  return {
    parse(v, path = '') {
      if (typeof v !== 'number' || !Number.isFinite(v)) throw new SchemaError(path, `expected a number, got ${describe(v)}`);
      if (integer && !Number.isInteger(v)) throw new SchemaError(path, 'must be a whole number');
      if (v < min || v > max) throw new SchemaError(path, `must be between ${min} and ${max}`);
      return v;
    },
  };
}

export function boolean(): Schema<boolean> {
  return {
    parse(v, path = '') {
      if (typeof v !== 'boolean') throw new SchemaError(path, `expected a boolean, got ${describe(v)}`);
      return v;
    },
  };
}

export function oneOf<const T extends readonly string[]>(values: T): Schema<T[number]> {
  return {
    parse(v, path = '') {
      if (typeof v !== 'string' || !values.includes(v)) {
        throw new SchemaError(path, `expected one of ${values.join(', ')}`);
      }
      return v as T[number];
    },
  };
}

export function array<T>(item: Schema<T>, opts: { max?: number } = {}): Schema<T[]> {
  const { max = 10_000 } = opts;
  return {
    parse(v, path = '') {
      if (!Array.isArray(v)) throw new SchemaError(path, `expected an array, got ${describe(v)}`);
      if (v.length > max) throw new SchemaError(path, `must hold at most ${max} items`);
      return v.map((x, i) => item.parse(x, `${path}[${i}]`));
    },
  };
}

export interface OptionalSchema<T> extends Schema<T | undefined> {
  readonly optional: true;
}

export function optional<T>(inner: Schema<T>): OptionalSchema<T> {
  return {
    optional: true,
    parse(v, path = '') {
      return v === undefined ? undefined : inner.parse(v, path);
    },
  };
}

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: S[K] extends { optional: true } ? K : never }[keyof S];
type Simplify<T> = { [K in keyof T]: T[K] } & {};
export type ObjectOf<S extends Shape> = Simplify<{ [K in Exclude<keyof S, OptionalKeys<S>>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> }>;

export function object<S extends Shape>(shape: S): Schema<ObjectOf<S>> {
  return {
    parse(v, path = '') {
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        throw new SchemaError(path, `expected an object, got ${describe(v)}`);
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) throw new SchemaError(path, 'expected a plain object');
      const input = v as Record<string, unknown>;
      for (const key of Object.keys(input)) {
        if (!Object.hasOwn(shape, key)) throw new SchemaError(path ? `${path}.${key}` : key, 'is not an expected field');
      }
      const out: Record<string, unknown> = {};
      for (const [key, schema] of Object.entries(shape)) {
        const value = schema.parse(input[key], path ? `${path}.${key}` : key);
        if (value !== undefined) out[key] = value;
      }
      return out as ObjectOf<S>;
    },
  };
}

/** Identifiers the API hands out: short, printable, no path separators. */
export const id = (): Schema<string> => string({ min: 1, max: 200, pattern: /^[^\s/\\]+$/ });
