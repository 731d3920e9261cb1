/**
 * Links across spaces: a page of one space linking a page of another synced space holds a
 * relative path into that space's folder. When pages of a space move, appear (its first sync)
 * or go away, the files of other spaces linking them are written again — when they still hold
 * what was recorded; a file edited since keeps its links until its own space's next cycle (its
 * link map still turns them back into the same references, so nothing is pushed wrong).
 */
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { toLocalLinks } from '../content';
import type { Mirror } from '../mirror';
import { sha256 } from './hash';
import type { LinkResolver } from './link-targets';
import { resolveInside, writeFileAtomicStat } from './safe-fs';
import type { Touched } from './space-sync';

export async function relinkAcrossSpaces(
  mirror: Pick<Mirror, 'content' | 'folder' | 'outbox'>,
  root: string,
  links: LinkResolver,
  touched: readonly Touched[],
): Promise<number> {
  const dependents = new Map<string, { spaceId: string; key: string }>();
  for (const t of touched) {
    const found = t.firstSync ? mirror.folder.linkingSpace(t.spaceId) : mirror.folder.linking(t.spaceId, t.keys);
    for (const d of found) if (d.spaceId !== t.spaceId) dependents.set(`${d.spaceId}\u0000${d.key}`, d);
  }
  let written = 0;
  for (const { spaceId, key } of dependents.values()) {
    const node = mirror.folder.node(spaceId, key);
    const folder = links.folderOf(spaceId);
    if (!node?.path || node.fileHash === null || node.textHash === null || folder === null) continue;
    const spaceDir = join(root, folder);
    const abs = resolveInside(spaceDir, node.path);
    const bytes = await fsp.readFile(abs).catch(() => null);
    if (bytes === null || sha256(bytes) !== node.fileHash) continue;
    const stable = stableTextOf(mirror, spaceId, key, node.textHash);
    if (stable === null) continue;
    const local = toLocalLinks(stable, links.targetsFor(spaceId, node.path));
    if (local.text === bytes.toString('utf8')) continue;
    const st = (await writeFileAtomicStat(spaceDir, node.path, local.text))!.stats;
    mirror.folder.upsert(spaceId, { ...node, size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), fileHash: sha256(local.text), linkMap: local.written });
    written++;
  }
  return written;
}

/** The stable text a node's file holds, when its recorded hash says which one it is. */
function stableTextOf(mirror: Pick<Mirror, 'content' | 'outbox'>, spaceId: string, key: string, textHash: string): string | null {
  const pushed = mirror.outbox.pushedPage(spaceId, key);
  for (const text of [pushed && !pushed.deleted ? pushed.text : null, mirror.content.baseText(spaceId, key)]) {
    if (text !== null && sha256(text) === textHash) return text;
  }
  return null;
}
