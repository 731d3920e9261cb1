import type { RevisionPage, RevisionFile } from '@gitbook/api';
import { pickPageMeta, type PageMeta } from '../content';

/** One page of a remote revision, flattened with its place in the tree. */
export interface RemotePage {
  id: string;
  parentId: string | null;
  position: number;
  type: 'document' | 'group' | 'link' | 'computed';
  title: string;
  slug: string | null;
  meta: PageMeta;
  /** Changes whenever the page body changes; absent for empty pages. */
  documentId: string | null;
  updatedAt: string | null;
}

export interface RemoteFile {
  id: string;
  name: string;
  contentType: string;
  size: number;
  downloadURL: string;
}

/**
 * The metadata a page file carries. Page `layout` is left out: the API sends
 * it for every page, it would put a dozen lines of display switches on top of
 * every file, and an update without it leaves the page's layout as it is.
 */
function fileMeta(page: Record<string, unknown>): PageMeta {
  const { layout: _layout, ...meta } = pickPageMeta(page);
  return meta;
}

/** Flattens a revision's page tree, keeping parent and sibling order. */
export function flattenPages(pages: RevisionPage[]): RemotePage[] {
  const out: RemotePage[] = [];
  const walk = (list: RevisionPage[], parentId: string | null) => {
    list.forEach((page, position) => {
      const p = page as unknown as Record<string, unknown> & { id: string; title: string; type: RemotePage['type'] };
      out.push({
        id: p.id,
        parentId,
        position,
        type: p.type,
        title: p.title,
        slug: typeof p.slug === 'string' ? p.slug : null,
        meta: fileMeta(p),
        documentId: typeof p.documentId === 'string' ? p.documentId : null,
        updatedAt: typeof p.updatedAt === 'string' ? p.updatedAt : null,
      });
      const children = (p.pages as RevisionPage[] | undefined) ?? [];
      walk(children, p.id);
    });
  };
  walk(pages, null);
  return out;
}

export function remoteFiles(files: RevisionFile[] | undefined): RemoteFile[] {
  return (files ?? []).map((f) => ({ id: f.id, name: f.name, contentType: f.contentType, size: f.size, downloadURL: f.downloadURL }));
}
