import type { ApiClient } from '../api';
import { samePageText } from '../content';
import type { Mirror } from '../mirror';
import { sha256 } from './hash';
import { type LayoutPage, type NameRules, planAssetPaths, planLayout } from './plan/layout';
import type { RemotePage } from './plan';
import { baseMetaOf, fetchPageText, forEachBounded, type RemoteTree } from './remote';
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

/** Matches the folder's files to the server's pages and records them; returns how many were matched. */
export async function rebuildFromFolder(input: RebuildInput): Promise<number> {
  const { api, mirror, spaceId, tree } = input;
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
  mirror.transaction(() => {
    for (const [id, path] of matched) {
      const p = tree.pages.get(id)!;
      const text = texts.get(id) ?? null;
      mirror.content.upsertBase(
        spaceId,
        {
          id,
          parentId: p.parentId,
          position: p.position,
          type: p.kind,
          title: p.title,
          slug: p.slug,
          meta: baseMetaOf(p),
          documentId: p.documentId,
          updatedAt: p.updatedAt,
        },
        { value: text },
        path,
      );
      const planned = layout.pages.get(id);
      mirror.folder.upsert(spaceId, {
        key: id,
        kind: 'document',
        parentKey: p.parentId,
        position: p.position,
        title: p.title,
        name: planned?.name ?? null,
        path,
        folder: planned?.folder ?? null,
        href: null,
        placedLocally: path !== layout.pagePaths.get(id),
        pending: false,
        textHash: text === null ? null : sha256(text),
        size: null,
        mtimeMs: null,
        ino: null,
        fileHash: null,
        linkMap: null,
      });
    }
    for (const a of assets) {
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
    if (matched.size + assets.length > 0) {
      mirror.log.add('info', `rebuilt the record of this folder from the server: ${matched.size} page file(s) and ${assets.length} asset(s) matched`, spaceId);
    }
  });
  return matched.size + assets.length;
}

function layoutTree(tree: RemoteTree): LayoutPage[] {
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
async function matchAssets(input: RebuildInput, paths: Map<string, string>) {
  const out: { file: RemoteTree['files'][number]; path: string; hash: string; size: number; mtimeMs: number; ino: string }[] = [];
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
