import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { PageRow } from '../mirror';
import { localState, REMOTE_SUFFIX } from './pull';

export interface LocalChanges {
  modified: string[];
  added: string[];
  deleted: string[];
}

/** Files in a space folder that Quire manages itself rather than as pages. */
function isManaged(rel: string): boolean {
  return rel === 'SUMMARY.md' || rel.startsWith('.gitbook/') || rel.startsWith('.quire/') || rel.endsWith(REMOTE_SUFFIX);
}

/** Markdown files under a space folder, as POSIX paths relative to it. */
export async function listMarkdown(spaceDir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (rel: string) => {
    const entries = await readdir(join(spaceDir, rel), { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      const childRel = rel ? posix.join(rel, e.name) : e.name;
      if (e.isDirectory()) {
        if (e.name === '.quire' || e.name === '.gitbook' || e.name === '.git') continue;
        await walk(childRel);
      } else if (e.isFile() && e.name.toLowerCase().endsWith('.md') && !isManaged(childRel)) {
        out.push(childRel);
      }
    }
  };
  await walk('');
  return out.sort();
}

/**
 * Compares a space folder with the mirror: which page files were edited,
 * added or removed since the last sync. Unchanged files cost one stat.
 */
export async function detectLocalChanges(spaceDir: string, pages: PageRow[]): Promise<LocalChanges> {
  const changes: LocalChanges = { modified: [], added: [], deleted: [] };
  const known = new Set<string>();
  for (const page of pages) {
    if (!page.path) continue;
    known.add(page.path);
    const state = await localState(spaceDir, page);
    if (!state.exists) changes.deleted.push(page.path);
    else if (state.changed) changes.modified.push(page.path);
  }
  for (const rel of await listMarkdown(spaceDir)) if (!known.has(rel)) changes.added.push(rel);
  return changes;
}
