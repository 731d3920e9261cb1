/**
 * A folder's names as the scan takes them: decoded as UTF-8 (a name that is not is marked, never
 * taken with replacement characters), and which of them spell one name two ways (NFC and NFD:
 * spelling.ts).
 */
import { readdirSync } from 'node:fs';
import { hasOtherSpelling } from './spelling';

const decoder = new TextDecoder('utf-8', { fatal: true });

export type DirName = { name: string; isDirectory: boolean; badName: boolean };

/** The NFC forms of a folder's names that more than one of its entries spells (null: none). */
export function twoSpellings(names: readonly DirName[]): Set<string> | null {
  // Made only for a name spelt otherwise: a folder of plain names (nearly every one) allocates nothing.
  let seen: Set<string> | null = null;
  let twice: Set<string> | null = null;
  for (const { name } of names) {
    if (!hasOtherSpelling(name)) continue;
    const nfc = name.normalize('NFC');
    seen ??= new Set();
    if (!seen.has(nfc)) seen.add(nfc);
    else {
      twice ??= new Set();
      twice.add(nfc);
    }
  }
  return twice;
}

/**
 * A directory's names, decoded as UTF-8; a name that is not UTF-8 is marked (`badName`, shown
 * in Latin-1) instead of being taken with replacement characters for a name it is not. Read as
 * text first, which is twice as fast as bytes: only a directory where a name came back with
 * U+FFFD, the replacement character, is read again as bytes to tell which.
 */
export function dirNames(dir: string): DirName[] | 'no-permission' | 'gone' {
  try {
    const entries = readdirSync(dir, { withFileTypes: true });
    if (!entries.some((d) => d.name.includes('\uFFFD'))) return entries.map((d) => ({ name: d.name, isDirectory: d.isDirectory(), badName: false }));
    return readdirSync(dir, { encoding: 'buffer', withFileTypes: true }).map((d) => {
      try {
        return { name: decoder.decode(d.name), isDirectory: d.isDirectory(), badName: false };
      } catch {
        return { name: d.name.toString('latin1'), isDirectory: d.isDirectory(), badName: true };
      }
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return code === 'EACCES' || code === 'EPERM' ? 'no-permission' : 'gone';
  }
}
