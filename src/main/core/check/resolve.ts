/**
 * Where an href written in a file of the checked folder leads: the one answer both the checker
 * (is it broken?) and the preview (where does the rendered link go?) use. Relative paths are
 * resolved the way GitBook's Git Sync reads them (content/references.ts `resolveRelativeHref`:
 * a folder means its README.md); stable references (`/pages/<id>`, `/files/<id>`, also of
 * other spaces) through what the mirror knows.
 */
import { parseStableRef, resolveRelativeHref } from '../content';
import { type FolderIndex, type IndexedFile, joinRoot } from './folder-index';

export type Resolution =
  /** A URL with a scheme (`https:`, `mailto:`) or `//host`: not checked offline. */
  | { kind: 'external'; url: string }
  /** `#anchor` alone: a place in the same file. */
  | { kind: 'same-page'; anchor: string }
  /** A file of the checked folder (or, with `target` null, one outside the indexed spaces). */
  | { kind: 'file'; rootPath: string; anchor: string | null; target: IndexedFile | null }
  /** A relative path to nothing; `suggestion` is a root-relative path it probably meant. */
  | { kind: 'missing'; rootPath: string; anchor: string | null; suggestion: string | null }
  /** A relative path that climbs out of the checked folder. */
  | { kind: 'outside' }
  /** A stable reference; `rootPath` null when the mirror does not know it, `known` false when its space is synced but the id is not there. */
  | { kind: 'stable'; what: 'page' | 'file'; spaceId: string | null; id: string; anchor: string | null; rootPath: string | null; known: boolean | null }
  /** Anything else (an absolute path that is not a stable reference, a query alone, empty). */
  | { kind: 'other' };

const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** Resolves `href` as written in the file at `fromRootPath`. */
export function resolveHref(index: FolderIndex, fromRootPath: string, href: string): Resolution {
  const h = href.trim();
  if (h === '') return { kind: 'other' };
  if (SCHEME.test(h) || h.startsWith('//')) return { kind: 'external', url: h };
  if (h.startsWith('#')) return { kind: 'same-page', anchor: safeDecode(h.slice(1)) };
  if (h.startsWith('/')) return resolveStable(index, fromRootPath, h);
  const resolved = resolveRelativeHref(fromRootPath, h);
  if (!resolved) return h.startsWith('?') ? { kind: 'other' } : { kind: 'outside' };
  const { path, anchor } = resolved;
  const target = index.get(path);
  if (target || index.exists(path)) return { kind: 'file', rootPath: path, anchor, target: target ?? null };
  return { kind: 'missing', rootPath: path, anchor, suggestion: suggest(index, path) };
}

function resolveStable(index: FolderIndex, fromRootPath: string, href: string): Resolution {
  const stable = parseStableRef(href);
  if (!stable) return { kind: 'other' };
  const mirror = index.mirror;
  const spaceId = stable.spaceId ?? index.spaceOf(fromRootPath)?.spaceId ?? null;
  const id = stable.kind === 'page' ? stable.pageId : stable.fileId;
  const anchor = stable.kind === 'page' && stable.anchor !== null ? safeDecode(stable.anchor) : null;
  const base = { kind: 'stable', what: stable.kind, spaceId, id, anchor } as const;
  const folder = spaceId === null ? undefined : mirror?.spaceFolders.get(spaceId);
  if (!mirror || spaceId === null || folder === undefined) return { ...base, rootPath: null, known: null };
  const path = stable.kind === 'page' ? mirror.pages.get(spaceId)?.get(id) : mirror.files.get(spaceId)?.get(id);
  if (path === undefined) return { ...base, rootPath: null, known: false };
  return { ...base, rootPath: path === null ? null : joinRoot(folder, path), known: true };
}

/** The path a broken link probably meant: the same path in another case, with `.md`, or the one file of that name. */
function suggest(index: FolderIndex, rootPath: string): string | null {
  const variant = index.caseVariants(rootPath)[0];
  if (variant) return variant;
  if (!/\.[A-Za-z0-9]+$/.test(rootPath) && index.get(`${rootPath}.md`)) return `${rootPath}.md`;
  if (index.get(`${rootPath}/README.md`)) return `${rootPath}/README.md`;
  const name = rootPath.slice(rootPath.lastIndexOf('/') + 1);
  const same = index.withName(name);
  return same.length === 1 ? same[0]! : null;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
