/**
 * One name, two spellings. Unicode writes `ü` as one code point (NFC) or as `u` and a combining
 * diaeresis (NFD); macOS and git often write file names NFD, while Quire's paths (the scan's,
 * the layout's, the mirror's) are NFC. Linux keeps the two spellings apart, so a path Quire
 * names is looked up as it is spelt on disk: a segment missing under its own spelling is the
 * folder's entry with the same NFC form, when there is one. The file keeps the spelling it has.
 */
import { lstatSync, readdirSync } from 'node:fs';
import * as path from 'node:path';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII is spelt one way only
const ASCII = /^[\x00-\x7f]*$/;

/** True when `name` may be spelt otherwise (it holds a character Unicode composes or decomposes). */
export function hasOtherSpelling(name: string): boolean {
  return !ASCII.test(name) && name.normalize('NFC') !== name.normalize('NFD');
}

/**
 * The entries of folders spelt otherwise than NFC, by their NFC form, listed once per folder: a
 * writer of many files (a pull) looks a folder up once, not once per file. Quire itself writes
 * NFC names, which are found without the list; an entry found in it is checked to be there still.
 */
export class Spellings {
  private readonly byDir = new Map<string, Map<string, string> | null>();

  /** The entry of `dir` spelt otherwise than `name` with the same NFC form, if any. */
  otherSpelling(dir: string, name: string): string | undefined {
    let listed = this.byDir.get(dir);
    if (listed === undefined) {
      listed = otherSpellingsIn(dir);
      this.byDir.set(dir, listed);
    }
    const found = listed?.get(name.normalize('NFC'));
    return found !== undefined && found !== name && exists(path.join(dir, found)) ? found : undefined;
  }
}

/** `segments` below `absRoot`, each as it is spelt on disk (as given where nothing else is there). */
export function spelledOnDisk(absRoot: string, segments: readonly string[], spellings: Spellings = new Spellings()): string[] {
  const out: string[] = [];
  let dir = absRoot;
  for (const segment of segments) {
    let name = segment;
    if (hasOtherSpelling(segment) && !exists(path.join(dir, segment))) {
      const nfc = segment.normalize('NFC');
      name = nfc !== segment && exists(path.join(dir, nfc)) ? nfc : (spellings.otherSpelling(dir, segment) ?? segment);
    }
    out.push(name);
    dir = path.join(dir, name);
  }
  return out;
}

/** A relative POSIX path (`/`) below `absRoot` as spelt on disk. */
export function relSpelledOnDisk(absRoot: string, rel: string): string {
  if (!hasOtherSpelling(rel)) return rel;
  return spelledOnDisk(absRoot, rel.split('/')).join('/');
}

function otherSpellingsIn(dir: string): Map<string, string> | null {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  const out = new Map<string, string>();
  for (const name of names) {
    if (!hasOtherSpelling(name)) continue;
    const nfc = name.normalize('NFC');
    if (nfc !== name && !out.has(nfc)) out.set(nfc, name);
  }
  return out;
}

function exists(p: string): boolean {
  try {
    return lstatSync(p, { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}
