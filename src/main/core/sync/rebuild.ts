/**
 * A folder with files but no record of them (a lost or older mirror): the record is rebuilt
 * from the server and the folder before anything is planned, so nothing is pushed twice and
 * nothing is taken for new.
 *
 * - Page files are matched to main's pages by the path the layout gives them, then by text.
 * - Groups and link pages have no file: every one main has is recorded where main has it, so
 *   SUMMARY.md's `## Group` headings and link entries are recognised, never taken for new ones.
 * - Assets are matched by path and bytes.
 *
 * Matching only reads (`matchFolder`); recording is one transaction (`recordRebuilt`), which a
 * dry run makes inside a transaction it undoes.
 */
import type { ApiClient } from '../api';
import { samePageText } from '../content';
import type { Mirror } from '../mirror';
import { sha256 } from './hash';
import { type LayoutPage, type LayoutPlan, type NameRules, planAssetPaths, planLayout } from '../naming';
import type { RemotePage } from './plan';
import { forEachBounded } from './bounded';
import { baseMetaOf, fetchPageText, type RemoteTree } from './remote';
import type { ScanResult } from './scan';

export interface RebuildInput {
  api: ApiClient;
  mirror: Mirror;
  spaceId: string;
  spaceDir: string;
  tree: RemoteTree;
  scan: ScanResult;
  /** What the folder's volume holds (the layout the files are matched by). */
  rules?: NameRules;
  signal?: AbortSignal;
}

/** What the folder was found to hold of main: page files, groups and links, assets. */
export interface RebuiltRecord {
  spaceId: string;
  tree: RemoteTree;
  layout: LayoutPlan;
  /** Page id -> the file found for it. */
  files: Map<string, string>;
  /** Page id -> main's text (stable form), for the pages matched. */
  texts: Map<string, string>;
  assets: { file: RemoteTree['files'][number]; path: string; hash: string; size: number; mtimeMs: number; ino: string }[];
}

/** Matches the folder's files to the server's pages (reads only). Null when nothing of the folder is main's. */
export async function matchFolder(input: RebuildInput): Promise<RebuiltRecord | null> {
  const { api, spaceId, tree } = input;
  const layout = planLayout(layoutTree(tree), input.rules ? { rules: input.rules } : {});
  const files = new Map(input.scan.local.added.map((a) => [a.path, a.text]));
  const docs = [...tree.pages.values()].filter((p) => p.kind === 'document');
  const byPath = new Map<string, RemotePage>();
  for (const p of docs) {
    const path = layout.pagePaths.get(p.id);
    if (path && files.has(path)) byPath.set(p.id, p);
  }
  // Server texts: of the pages matched by path, and of the others when files are left to match by content.
  const unmatchedFiles = [...files.keys()].filter((path) => ![...byPath.keys()].some((id) => layout.pagePaths.get(id) === path));
  const wanted = unmatchedFiles.length > 0 ? docs : docs.filter((p) => byPath.has(p.id));
  const texts = new Map<string, string>();
  await forEachBounded(wanted, 16, async (p) => {
    texts.set(p.id, await fetchPageText(api, spaceId, p, input.signal));
  });
  const matched = new Map<string, string>();
  for (const [id] of byPath) matched.set(id, layout.pagePaths.get(id)!);
  for (const path of unmatchedFiles) {
    const text = files.get(path)!;
    const page = docs.find((p) => !matched.has(p.id) && texts.has(p.id) && samePageText(texts.get(p.id), text));
    if (page) matched.set(page.id, path);
  }
  const assets = await matchAssets(input, layoutAssetPaths(tree, input.rules));
  if (matched.size + assets.length === 0) return null;
  return { spaceId, tree, layout, files: matched, texts, assets };
}

/** How many files the rebuilt record matched (pages and assets). */
export const rebuiltCount = (r: RebuiltRecord): number => r.files.size + r.assets.length;

/** Writes the rebuilt record: main's rows and the folder's tree for the pages matched, every group and link, the assets. */
export function recordRebuilt(mirror: Pick<Mirror, 'content' | 'folder' | 'log' | 'transaction'>, r: RebuiltRecord): void {
  const { spaceId, tree, layout } = r;
  mirror.transaction(() => {
    for (const p of tree.pages.values()) {
      const path = r.files.get(p.id) ?? null;
      if (path === null && p.kind === 'document') continue; // no file found: a page new to this folder
      const text = r.texts.get(p.id) ?? null;
      mirror.content.upsertBase(
        spaceId,
        {
          id: p.id,
          parentId: p.parentId,
          position: p.position,
          type: p.kind,
          title: p.title,
          slug: p.slug,
          meta: baseMetaOf(p),
          documentId: p.documentId,
          updatedAt: p.updatedAt,
        },
        { value: p.kind === 'document' ? text : null },
        path,
      );
      const planned = layout.pages.get(p.id);
      mirror.folder.upsert(spaceId, {
        key: p.id,
        kind: p.kind,
        parentKey: p.parentId,
        position: p.position,
        title: p.title,
        name: planned?.name ?? null,
        path,
        folder: planned?.folder ?? null,
        href: p.kind === 'link' ? p.href : null,
        placedLocally: path !== null && path !== layout.pagePaths.get(p.id),
        pending: false,
        pathKept: path !== null && path !== layout.pagePaths.get(p.id),
        textHash: text === null ? null : sha256(text),
        size: null,
        mtimeMs: null,
        ino: null,
        fileHash: null,
        linkMap: null,
      });
    }
    for (const a of r.assets) {
      mirror.content.upsertFile({
        spaceId,
        id: a.file.id,
        name: a.file.name,
        contentType: a.file.contentType,
        size: a.file.size,
        path: a.path,
        remoteHash: a.hash,
      });
      mirror.folder.upsertAsset(spaceId, { path: a.path, fileId: a.file.id, size: a.size, mtimeMs: a.mtimeMs, ino: a.ino, hash: a.hash });
    }
    mirror.log.add('info', `rebuilt the record of this folder from the server: ${r.files.size} page file(s) and ${r.assets.length} asset(s) matched`, spaceId);
  });
}

/** The page tree a layout is planned from. */
export function layoutTree(tree: Pick<RemoteTree, 'pages' | 'children'>): LayoutPage[] {
  const build = (parent: string | null): LayoutPage[] =>
    (tree.children.get(parent) ?? []).map((id) => {
      const p = tree.pages.get(id)!;
      const pages = build(id);
      return { id, title: p.title, type: p.kind, ...(p.slug !== null ? { slug: p.slug } : {}), ...(pages.length > 0 ? { pages } : {}) };
    });
  return build(null);
}

function layoutAssetPaths(tree: RemoteTree, rules: NameRules | undefined): Map<string, string> {
  return planAssetPaths(
    tree.files.map((f) => ({ id: f.id, name: f.name })),
    rules ? { rules } : {},
  );
}

/** Local assets at a server file's path with the same bytes. */
async function matchAssets(input: RebuildInput, paths: Map<string, string>): Promise<RebuiltRecord['assets']> {
  const out: RebuiltRecord['assets'] = [];
  const added = new Map(input.scan.assets.added.map((a) => [a.path, a]));
  await forEachBounded(input.tree.files, 8, async (f) => {
    const path = paths.get(f.id);
    const local = path ? added.get(path) : undefined;
    if (!path || !local || local.size !== f.size) return;
    const bytes = await input.api.download(f.downloadURL);
    const hash = sha256(bytes);
    if (hash === local.hash) out.push({ file: f, path, hash, size: local.size, mtimeMs: local.mtimeMs, ino: local.ino });
  });
  return out;
}
