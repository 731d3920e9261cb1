/**
 * SUMMARY.md, written from the folder's tree after a cycle that changed it (places, names,
 * titles), and recorded as written so the next scan sees only the writer's own edits.
 */
import { stat } from 'node:fs/promises';
import { renderSummary } from '../content';
import type { Mirror } from '../mirror';
import { sha256 } from './hash';
import { type LayoutPage, type LayoutPlan, type PlannedPage, SUMMARY_FILE } from './layout';
import { recordSummary } from './scan';
import { readFileInside, writeFileAtomic } from './safe-fs';

/** The folder's tree as layout pages and a plan whose paths are the files' own. */
export function summaryTree(mirror: Mirror, spaceId: string): { pages: LayoutPage[]; plan: LayoutPlan } {
  const nodes = mirror.folder.tree(spaceId).filter((n) => !(n.pending && n.path === null && n.kind === 'document'));
  const children = new Map<string | null, typeof nodes>();
  for (const n of nodes) children.set(n.parentKey, [...(children.get(n.parentKey) ?? []), n]);
  const planned = new Map<string, PlannedPage>();
  const build = (parent: string | null, depth: number): LayoutPage[] =>
    (children.get(parent) ?? [])
      .sort((a, b) => a.position - b.position || (a.key < b.key ? -1 : 1))
      .map((n, index) => {
        planned.set(n.key, { id: n.key, kind: n.kind, title: n.title, parentId: parent, index, name: n.name, file: n.path, folder: n.folder });
        const kids = depth < 256 ? build(n.key, depth + 1) : [];
        return { id: n.key, title: n.title, type: n.kind, ...(n.href !== null ? { href: n.href } : {}), ...(kids.length > 0 ? { pages: kids } : {}) };
      });
  const pages = build(null, 0);
  const pagePaths = new Map([...planned].map(([id, p]) => [id, p.file]));
  const byFile = new Map([...planned].flatMap(([id, p]) => (p.file ? [[p.file, id] as const] : [])));
  const byFolder = new Map([...planned].flatMap(([id, p]) => (p.folder ? [[p.folder, id] as const] : [])));
  return { pages, plan: { pages: planned, pagePaths, byFile, byFolder, firstPageId: byFile.get('README.md') ?? null } };
}

/** Writes SUMMARY.md when it says something else than the tree; records what it holds either way. */
export async function writeSummaryFile(mirror: Mirror, spaceId: string, spaceDir: string, linkHref: (href: string) => string): Promise<boolean> {
  const { pages, plan } = summaryTree(mirror, spaceId);
  const withLocalLinks = (list: LayoutPage[]): LayoutPage[] =>
    list.map((p) => ({ ...p, ...(p.href !== undefined ? { href: linkHref(p.href) } : {}), ...(p.pages ? { pages: withLocalLinks([...p.pages]) } : {}) }));
  const text = renderSummary(withLocalLinks(pages), plan);
  const current = await readFileInside(spaceDir, SUMMARY_FILE, 'utf8').catch(() => null);
  let abs: string;
  if (current === text) abs = `${spaceDir}/${SUMMARY_FILE}`;
  else abs = await writeFileAtomic(spaceDir, SUMMARY_FILE, text);
  const st = await stat(abs);
  recordSummary(mirror, spaceId, { size: st.size, mtimeMs: st.mtimeMs, ino: String(st.ino), hash: sha256(text) });
  return current !== text;
}
