import { mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Mirror } from '../../src/main/core/mirror';
import { ApiClient } from '../../src/main/core/api';
import { type ApplyContext, applyFileOps, type WrittenPage } from '../../src/main/core/sync/apply';
import { sha256 } from '../../src/main/core/sync/hash';
import { LinkResolver } from '../../src/main/core/sync/link-targets';
import { OwnWrites } from '../../src/main/core/sync/own-writes';
import type { FileOp, Plan } from '../../src/main/core/sync/plan';
import { scanSpace } from '../../src/main/core/sync/scan';

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

const opened: Mirror[] = [];

/** Closes the mirrors `scannedFolder` opened (for afterEach). */
export function closeScannedFolders(): void {
  for (const m of opened.splice(0)) m.close();
}

/** A recorded folder, scanned as a cycle scans it before applying; `apply` then carries out file operations on it. */
export function scannedFolder(files: Record<string, string>) {
  const folder = recordedFolder(files);
  opened.push(folder.mirror);
  const scan = scanSpace({ mirror: folder.mirror, spaceId: SPACE, spaceDir: folder.spaceDir, hint: 'all' });
  const heard: WrittenPage[] = [];
  const ownWrites = new OwnWrites();
  const ctx: ApplyContext = {
    // No operation here fetches a text (each carries its own): a client nothing answers.
    api: new ApiClient({ baseUrl: 'http://127.0.0.1:9', token: 'unused', maxAttempts: 1 }),
    mirror: folder.mirror,
    spaceId: SPACE,
    spaceTitle: 'Handbook',
    spaceDir: folder.spaceDir,
    stagingDir: join(folder.root, '.quire', 'staging', SPACE),
    links: new LinkResolver(folder.mirror),
    seen: scan.seen,
    remotePage: () => undefined,
    onWritten: (page) => heard.push(page),
    ownWrites,
  };
  // Apply reads only the plan's file operations.
  const apply = (fileOps: FileOp[]) => applyFileOps(ctx, { fileOps } as Plan);
  const read = (path: string) => readFileSync(join(folder.spaceDir, path), 'utf8');
  return { ...folder, apply, read, heard, ownWrites };
}
