import { mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Mirror } from '../../src/main/core/mirror';
import { sha256 } from '../../src/main/core/sync/hash';

export const SPACE = 'space-1';

export interface RecordedFolder {
  root: string;
  spaceDir: string;
  mirror: Mirror;
}

/** The key a page file of `recordedFolder` is recorded under. */
export const keyOf = (path: string): string => `page-${path.replace(/\W/g, '-')}`;

export function writeInside(spaceDir: string, path: string, text: string | Buffer): void {
  mkdirSync(dirname(join(spaceDir, path)), { recursive: true });
  writeFileSync(join(spaceDir, path), text);
}

/**
 * A sync folder whose space folder holds `files` (pages at the top, by path), each recorded in
 * the mirror as the last sync cycle wrote it: the state the scan and apply start from.
 */
export function recordedFolder(files: Record<string, string>): RecordedFolder {
  const root = mkdtempSync(join(tmpdir(), 'quire-recorded-'));
  const spaceDir = join(root, 'Handbook');
  mkdirSync(spaceDir);
  const mirror = Mirror.open(root);
  mirror.transaction(() => {
    for (const [position, [path, text]] of Object.entries(files).entries()) {
      writeInside(spaceDir, path, text);
      const st = statSync(join(spaceDir, path));
      mirror.folder.upsert(SPACE, {
        key: keyOf(path),
        kind: 'document',
        parentKey: null,
        position,
        title: path,
        name: path.replace(/\.md$/, ''),
        path,
        folder: null,
        href: null,
        placedLocally: false,
        pending: false,
        pathKept: false,
        textHash: sha256(text),
        size: st.size,
        mtimeMs: st.mtimeMs,
        ino: String(st.ino),
        fileHash: sha256(text),
        linkMap: null,
      });
    }
  });
  return { root, spaceDir, mirror };
}
