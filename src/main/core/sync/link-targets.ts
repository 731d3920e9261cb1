/**
 * What links.ts needs to know about files, answered from the mirror: where a page's or an
 * asset's file is (in any synced space), and what a file of the sync folder is. A cycle lays
 * its own changes over it: the paths it is about to give pages, and the files the scan found
 * at new paths (a new file is `new:<path>` until the server gives it an id). And what a page
 * links to, recorded so its file is written again when one of those targets moves.
 */
import { findReferences, type LinkTargets, parseStableRef, type Reference } from '../content';
import type { Mirror } from '../mirror';
import { INCLUDES_FOLDER, readExtras } from './extras-record';

const NEW = 'new:';

/** What a stable text links to, for writing links again when a target moves (`refs`: its references, when found already). */
export function linkTargets(stable: string, spaceId: string, refs: readonly Reference[] = findReferences(stable)): { space: string; id: string }[] {
  const out = new Map<string, { space: string; id: string }>();
  for (const ref of refs) {
    const parsed = parseStableRef(ref.href);
    if (!parsed) continue;
    const space = parsed.spaceId ?? spaceId;
    const id = parsed.kind === 'page' ? parsed.pageId : parsed.fileId;
    out.set(`${space}\u0000${id}`, { space, id });
  }
  return [...out.values()];
}

export interface LinkOverlay {
  /** Pages of this space whose file is somewhere else now (or will be once written). */
  paths?: ReadonlyMap<string, string | null>;
  /** Paths (space-relative) of page files the scan found and what they are now. */
  files?: ReadonlyMap<string, string>;
  /** Assets here that the server does not have yet (space-relative paths). */
  newAssets?: ReadonlySet<string>;
}

export class LinkResolver {
  private readonly folders = new Map<string, string | null>();
  private readonly spaces = new Map<string, string | null>();
  private readonly overlays = new Map<string, LinkOverlay>();

  constructor(private readonly mirror: Pick<Mirror, 'catalog' | 'content' | 'folder' | 'outbox'>) {}

  /** Lays this cycle's changes of one space over what the mirror says. */
  overlay(spaceId: string, overlay: LinkOverlay): void {
    this.overlays.set(spaceId, overlay);
  }

  /** The folder of a space (relative to the sync root), null when it is not synced. */
  folderOf(spaceId: string): string | null {
    if (!this.folders.has(spaceId)) {
      const space = this.mirror.catalog.space(spaceId);
      this.folders.set(spaceId, space?.selected && space.folder ? space.folder : null);
    }
    return this.folders.get(spaceId) ?? null;
  }

  private spaceAt(folder: string): string | null {
    if (!this.spaces.has(folder)) {
      const space = this.mirror.catalog.spaces().find((s) => s.selected && s.folder === folder);
      this.spaces.set(folder, space?.id ?? null);
    }
    return this.spaces.get(folder) ?? null;
  }

  /** Where a page's file is, relative to its space folder. */
  pagePath(spaceId: string, key: string): string | null {
    const overlay = this.overlays.get(spaceId)?.paths;
    if (overlay?.has(key)) return overlay.get(key) ?? null;
    const node = this.mirror.folder.node(spaceId, key);
    return node?.kind === 'document' ? node.path : null;
  }

  /** The links of a page file at `path` of `spaceId` (relative to its space folder). */
  targetsFor(spaceId: string, path: string): LinkTargets {
    const folder = this.folderOf(spaceId) ?? '';
    const join = (f: string, p: string) => (f === '' ? p : `${f}/${p}`);
    return {
      spaceId,
      file: join(folder, path),
      pageFile: (space, pageId) => {
        const f = this.folderOf(space);
        if (f === null) return null;
        const p = this.pagePath(space, pageId);
        return p === null ? null : join(f, p);
      },
      assetFile: (space, fileId) => {
        const f = this.folderOf(space);
        if (f === null) return null;
        const p = this.mirror.content.filePath(space, fileId);
        return p === null ? null : join(f, p);
      },
      includeFile: (space, id) => {
        const f = this.folderOf(space);
        const p = f === null ? undefined : readExtras(this.mirror, space).includes.find((i) => i.id === id)?.path;
        return p === undefined || f === null ? null : join(f, p);
      },
      lookup: (rootPath) => {
        const slash = rootPath.indexOf('/');
        const space = slash < 0 ? this.spaceAt('') : this.spaceAt(rootPath.slice(0, slash));
        const rest = slash < 0 ? rootPath : rootPath.slice(slash + 1);
        const inSpace = space ?? (folder === '' ? spaceId : null);
        if (inSpace === null) return null;
        const relative = space === null ? rootPath : rest;
        return this.what(inSpace, relative);
      },
    };
  }

  /** What the file at `path` of a space is: a page (id, or `new:<path>`), an asset, a reusable content, or nothing known. */
  what(spaceId: string, path: string): { kind: 'page' | 'file' | 'include'; spaceId: string; id: string } | null {
    const overlay = this.overlays.get(spaceId)?.files;
    const here = overlay?.get(path);
    if (here !== undefined) return { kind: 'page', spaceId, id: here };
    if (path.startsWith(`${INCLUDES_FOLDER}/`)) {
      const include = readExtras(this.mirror, spaceId).includes.find((i) => i.path === path);
      return include ? { kind: 'include', spaceId, id: include.id } : null;
    }
    if (path.startsWith('.gitbook/assets/')) {
      // Uploaded in this push (new or changed), else the change request's upload, else main's file.
      if (this.overlays.get(spaceId)?.newAssets?.has(path)) return { kind: 'file', spaceId, id: `${NEW}${path}` };
      const id = this.mirror.outbox.pushedFileIdAt(spaceId, path) ?? this.mirror.content.fileIdAt(spaceId, path);
      return id !== null ? { kind: 'file', spaceId, id } : null;
    }
    const key = this.mirror.folder.byPath(spaceId, path);
    return key === undefined ? null : { kind: 'page', spaceId, id: key };
  }
}
