/**
 * GitBook's stable references, as stored in page markdown and returned with
 * `format.markdown.refs=stable`:
 *
 *   /pages/<pageId>[#anchor]                  a page of this space
 *   /spaces/<spaceId>/pages/<pageId>[#anchor] a page of another space
 *   /files/<fileId>, /spaces/<spaceId>/files/<fileId>
 *   /reusable-content/<id>                    in `{% include "…" %}` (GitBook's skill docs)
 *
 * and the read side of `format.markdown.refs=relative` (the default): references to pages of
 * this space become relative links from the page being read (see PageIndex.relativeHref);
 * every other reference (files, other spaces, reusable content, pages missing from the
 * revision, and `/spaces/<this space>/pages/…`) is left as stored. The spec says of `relative`
 * only "Other references might not be handled"; what GitBook serves for them is not documented.
 */
import type { PageIndex } from './page-index';
import { rewriteReferences } from './ref-scanner';

export type StableRef =
  | { kind: 'page'; page: string; space?: string; anchor?: string }
  | { kind: 'file'; file: string; space?: string }
  | { kind: 'reusable-content'; reusableContent: string; space?: string };

const STABLE = /^\/(?:spaces\/([^/#?\s]+)\/)?(pages|files|reusable-content)\/([^/#?\s]+)(?:#(.*))?$/;

export function parseStableRef(target: string): StableRef | undefined {
  const m = STABLE.exec(target);
  if (!m) return undefined;
  const [, space, kind, id = '', anchor] = m;
  const inSpace = space !== undefined ? { space } : {};
  if (kind === 'pages') return { kind: 'page', page: id, ...inSpace, ...(anchor !== undefined ? { anchor } : {}) };
  if (anchor !== undefined) return undefined;
  return kind === 'files' ? { kind: 'file', file: id, ...inSpace } : { kind: 'reusable-content', reusableContent: id, ...inSpace };
}

export function formatStableRef(ref: StableRef): string {
  const prefix = ref.space !== undefined ? `/spaces/${ref.space}` : '';
  switch (ref.kind) {
    case 'page':
      return `${prefix}/pages/${ref.page}${ref.anchor !== undefined ? `#${ref.anchor}` : ''}`;
    case 'file':
      return `${prefix}/files/${ref.file}`;
    case 'reusable-content':
      return `${prefix}/reusable-content/${ref.reusableContent}`;
  }
}

/** A stored body as `format.markdown.refs=relative` serves it, read from page `pageId`. */
export function renderRelative(body: string, index: PageIndex, pageId: string, readmeLinks: 'folder' | 'readme'): string {
  return rewriteReferences(body, (site) => {
    const ref = parseStableRef(site.target);
    if (ref?.kind !== 'page' || ref.space !== undefined || !index.page(ref.page)) return undefined;
    return index.relativeHref(pageId, ref.page, ref.anchor, readmeLinks);
  });
}
