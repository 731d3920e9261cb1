/**
 * What the sync folder's volume can hold in a name (core/naming's NameRules), found by asking
 * it: a file made in `.quire/` and looked up in another letter case tells whether the volume
 * ignores case (macOS, Windows, exFAT, FAT); one named with `:` whether it refuses Windows'
 * characters (exFAT, FAT, NTFS); Windows itself refuses its device names and folders ending in
 * a dot. A dry run writes nothing: it uses what the last sync found (or what the platform
 * usually has).
 *
 * The layout the folder was last laid out under is kept in the mirror (`layout` meta): when it
 * differs — Quire's naming changed, or the folder moved to another kind of volume — the next
 * cycle lays every folder out again, once, moving files to their names by local renames.
 */
import { closeSync, lstatSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Mirror, STATE_DIR } from '../mirror';
import type { NameRules } from '../naming';

/** Bumped when the layout gives some page another name than before (a folder is laid out again once). */
const LAYOUT_VERSION = 2;
const LAYOUT_META = 'layout';
const RULES_META = 'layout.names';

const onWindows = process.platform === 'win32';

/** What the volume of `root` holds; `write: false` (a dry run) only reads. */
export function nameRulesOf(root: string, mirror: Pick<Mirror, 'catalog'>, options: { write: boolean }): NameRules {
  if (options.write) {
    const probed = probe(root);
    if (probed) {
      const text = JSON.stringify(probed);
      if (mirror.catalog.getMeta(RULES_META) !== text) mirror.catalog.setMeta(RULES_META, text);
      return probed;
    }
  }
  return storedRules(mirror) ?? platformRules();
}

/** The rules the last sync found (`quire status` explains names by them), null before any. */
export function storedRules(mirror: Pick<Mirror, 'catalog'>): NameRules | null {
  const raw = mirror.catalog.getMeta(RULES_META);
  if (!raw) return null;
  try {
    const parsed = JSON.parse(raw) as Partial<NameRules>;
    return {
      caseInsensitive: parsed.caseInsensitive === true,
      windowsCharacters: parsed.windowsCharacters === true,
      windowsNames: parsed.windowsNames === true,
    };
  } catch {
    return null;
  }
}

/** True when the folder was laid out under other rules (or an older layout) than `rules`: every folder is laid out again. */
export function layoutOutdated(mirror: Pick<Mirror, 'catalog'>, rules: NameRules): boolean {
  return mirror.catalog.getMeta(LAYOUT_META) !== layoutSignature(rules);
}

/** Records that every folder is now laid out under `rules`. */
export function recordLayout(mirror: Pick<Mirror, 'catalog'>, rules: NameRules): void {
  mirror.catalog.setMeta(LAYOUT_META, layoutSignature(rules));
}

function layoutSignature(rules: NameRules): string {
  return JSON.stringify({ version: LAYOUT_VERSION, ...rules });
}

function platformRules(): NameRules {
  const caseInsensitive = process.platform === 'darwin' || onWindows;
  return { caseInsensitive, windowsCharacters: onWindows, windowsNames: onWindows };
}

/** Asks the volume, with two files made and removed in `.quire/`; null when that cannot be done. */
function probe(root: string): NameRules | null {
  const dir = join(root, STATE_DIR);
  const stem = `names-${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}`;
  try {
    mkdirSync(dir, { recursive: true });
    const lower = join(dir, `${stem}-case`);
    if (!create(lower)) return null;
    let caseInsensitive: boolean;
    try {
      caseInsensitive = exists(join(dir, `${stem}-CASE`.toUpperCase()));
    } finally {
      rmSync(lower, { force: true });
    }
    const colon = join(dir, `${stem}:x`);
    const windowsCharacters = onWindows || !create(colon);
    if (!windowsCharacters) rmSync(colon, { force: true });
    return { caseInsensitive, windowsCharacters, windowsNames: onWindows };
  } catch {
    return null;
  }
}

/** Creates an empty file that must not exist yet (never through a symlink); false when the name is refused. */
function create(path: string): boolean {
  try {
    closeSync(openSync(path, 'wx'));
    return true;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
