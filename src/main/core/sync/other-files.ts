/**
 * Whether a folder of a space holds files that are not pages — the writer's notes, images, a
 * `.git`, a link — which a move of its pages would leave behind (plan/kept-paths.ts). Asked only
 * for folders a cycle's layout would leave, so it costs what moves, not the size of the space;
 * each folder is listed once per cycle, whichever folder above it asked first.
 */
import { type Dirent, readdirSync } from 'node:fs';
import { isTempName } from './ignore';
import { relSpelledOnDisk } from './spelling';

/** Past this many entries listed in a cycle, a folder is taken to hold others (nothing is moved out of it). */
const MAX_ENTRIES = 100_000;

export class OtherFiles {
  private readonly known = new Map<string, boolean>();
  private budget = MAX_ENTRIES;

  constructor(private readonly spaceDir: string) {}

  /** `dir` is relative to the space folder (`/` separators, NFC). */
  holds(dir: string, depth = 0): boolean {
    const known = this.known.get(dir);
    if (known !== undefined) return known;
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(`${this.spaceDir}/${relSpelledOnDisk(this.spaceDir, dir)}`, { withFileTypes: true });
    } catch {
      // Gone (nothing is left behind) or unreadable (a move out of it fails and says so).
    }
    this.budget -= entries.length;
    const holds =
      this.budget < 0 ||
      depth > 64 ||
      entries.some((e) => (e.isDirectory() ? false : !(e.isFile() && /\.md$/i.test(e.name)) && !isTempName(e.name))) ||
      entries.some((e) => e.isDirectory() && (e.name.startsWith('.') || this.holds(`${dir}/${e.name.normalize('NFC')}`, depth + 1)));
    this.known.set(dir, holds);
    return holds;
  }
}
