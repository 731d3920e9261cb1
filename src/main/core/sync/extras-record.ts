/**
 * What a space folder holds of its space beside its pages — reusable content in
 * `.gitbook/includes/`, the space's variables in `.gitbook/vars.yaml` — as the last cycle left
 * it: for each file, what it was written with (stable text, the file's stat and hash) and
 * whether the writer changed it since. Kept in the mirror (one small record per space: a space
 * holds a few reusable contents, not thousands).
 */
import type { VariableValue } from '../content';
import type { Mirror } from '../mirror';

export const INCLUDES_FOLDER = '.gitbook/includes';

/** A file as Quire last wrote it (or found it holding what it would write). */
export interface FileSeen {
  size: number;
  mtimeMs: number;
  ino: string;
  hash: string;
}

/** Where the writer left a file: as written, changed (held: never overwritten), or gone (written again from the record). */
export type FileState = 'synced' | 'edited' | 'missing';

export interface IncludeRecord {
  id: string;
  title: string;
  /** Relative to the space folder, under `.gitbook/includes/`. */
  path: string;
  /** The server's document id it was written from (null: empty content). */
  document: string | null;
  /** Its text with references in stable form, as written (links made relative again when pages move). */
  stable: string;
  seen: FileSeen | null;
  state: FileState;
  /** Main has a newer document the server failed to give (a 5xx): the file stays as it was, and the next cycle asks again. */
  behind?: true;
}

export interface VarsRecord {
  values: Record<string, VariableValue>;
  seen: FileSeen | null;
  state: FileState;
}

export interface ExtrasRecord {
  includes: IncludeRecord[];
  /** Null: the server has no space variables, and no file was written. */
  vars: VarsRecord | null;
}

const KEY = (spaceId: string) => `space-extras:${spaceId}`;

export function readExtras(mirror: Pick<Mirror, 'catalog'>, spaceId: string): ExtrasRecord {
  const raw = mirror.catalog.getMeta(KEY(spaceId));
  if (!raw) return { includes: [], vars: null };
  try {
    const parsed = JSON.parse(raw) as Partial<ExtrasRecord>;
    // A path the record names is only ever used inside the includes folder (a damaged record writes nowhere else).
    const includes = (Array.isArray(parsed.includes) ? parsed.includes : []).filter(
      (i): i is IncludeRecord => typeof i?.id === 'string' && typeof i.path === 'string' && isIncludePath(i.path) && typeof i.stable === 'string',
    );
    return { includes, vars: parsed.vars && typeof parsed.vars === 'object' ? parsed.vars : null };
  } catch {
    return { includes: [], vars: null };
  }
}

export function writeExtras(mirror: Pick<Mirror, 'catalog'>, spaceId: string, record: ExtrasRecord): void {
  mirror.catalog.setMeta(KEY(spaceId), JSON.stringify(record));
}

/** A path of one file directly in the includes folder (no `..`, no subfolder). */
export function isIncludePath(path: string): boolean {
  if (!path.startsWith(`${INCLUDES_FOLDER}/`)) return false;
  const name = path.slice(INCLUDES_FOLDER.length + 1);
  return name !== '' && !name.includes('/') && !name.includes('\\') && name !== '.' && name !== '..' && /\.md$/i.test(name);
}

/** The search and history key of a reusable content (pages are keyed by their id). */
export const includeKey = (id: string): string => `include:${id}`;
