/**
 * Links, images and block references that resolve to nothing: a relative path to a file that is
 * not there (a page: broken link; anything else: missing asset), an anchor the target page does
 * not define, a path that climbs out of the folder, an asset outside `.gitbook/assets/` (Quire
 * uploads only that folder), and stable references (`/pages/<id>`) to pages or files the mirror
 * does not have although it syncs their space. External URLs are not checked (offline).
 */
import { posix } from 'node:path';
import { findReferences, type Reference, relativeHref } from '../content';
import { hasAnchor } from './anchors';
import type { FolderIndex, IndexedFile } from './folder-index';
import type { Problem } from './problem';
import { type Resolution, resolveHref } from './resolve';
import { ASSETS_PREFIX } from './space-files';

export interface LinkFindings {
  problems: Problem[];
  /** Root-relative paths of the files this file's references reach (for unused assets). */
  reached: string[];
}

/** Where a reference is written, for messages: "the link", "the image", "{% file src %}". */
function describe(ref: Reference): string {
  if (ref.kind === 'block') return `{% ${ref.name}${ref.attribute ? ` ${ref.attribute}` : ''} %}`;
  if (ref.kind === 'html') return `<${ref.name} ${ref.attribute}>`;
  if (ref.kind === 'image') return 'the image';
  if (ref.kind === 'definition') return 'the link definition';
  return 'the link';
}

const isImageLike = (ref: Reference): boolean =>
  ref.kind === 'image' || (ref.kind === 'html' && ref.attribute !== 'href') || (ref.kind === 'block' && (ref.name === 'file' || ref.name === 'embed'));

const isInclude = (ref: Reference): boolean => ref.kind === 'block' && ref.name === 'include';

/** The files of the space's reusable content, for a fix: "none yet" or the first few names. */
function includesOf(from: IndexedFile): string {
  const names = from.space.files.filter((f) => f.kind === 'include').map((f) => posix.basename(f.path));
  if (names.length === 0) return 'none yet, in .gitbook/includes/';
  return `in .gitbook/includes/: ${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''}`;
}

export function checkLinks(index: FolderIndex, from: IndexedFile): LinkFindings {
  const text = from.file.text;
  const out: LinkFindings = { problems: [], reached: [] };
  if (text === null) return out;
  for (const ref of findReferences(text)) {
    const resolution = resolveHref(index, from.rootPath, ref.href);
    const problem = judge(index, from, ref, resolution, out.reached);
    if (problem) out.problems.push({ file: from.rootPath, line: ref.line, ...problem });
  }
  return out;
}

type Finding = Omit<Problem, 'file' | 'line'>;

function judge(index: FolderIndex, from: IndexedFile, ref: Reference, r: Resolution, reached: string[]): Finding | null {
  const what = describe(ref);
  const href = ref.href.trim();
  switch (r.kind) {
    case 'external':
    case 'other':
      return null;
    case 'same-page': {
      const anchors = index.anchors(from.rootPath);
      if (!anchors || hasAnchor(anchors, r.anchor)) return null;
      return {
        severity: 'warning',
        code: 'broken-anchor',
        message: `${cap(what)} \`${href}\` points to an anchor this page does not have.`,
        fix: 'Use the anchor of one of its headings (its text in lower case, spaces as -), or add <a id="…"></a> where it should land.',
      };
    }
    case 'outside':
      return {
        severity: 'error',
        code: 'link-outside-folder',
        message: `${cap(what)} \`${href}\` climbs out of the folder being checked, so GitBook cannot resolve it.`,
        fix: 'Point it at a file inside the space folder (fewer ../), or use a full https:// URL.',
      };
    case 'missing': {
      const hint = r.suggestion ? ` Did you mean \`${hrefFrom(from.rootPath, r.suggestion, r.anchor)}\`?` : '';
      const page = /\.md$/i.test(r.rootPath) && !isImageLike(ref);
      return {
        severity: 'error',
        code: page ? 'broken-link' : 'missing-asset',
        message: `${cap(what)} \`${href}\` leads to ${r.rootPath}, which does not exist.`,
        fix: isInclude(ref)
          ? `Fix the path: the space's reusable content is ${includesOf(from)} (new reusable content is made in GitBook's editor).${hint}`
          : page
            ? `Fix the path, or create the page and list it in SUMMARY.md.${hint}`
            : `Fix the path, or put the file in ${posix.join(spaceFolderOf(from), ASSETS_PREFIX)}.${hint}`,
      };
    }
    case 'file':
      reached.push(r.rootPath);
      return judgeFile(index, from, ref, r.rootPath, r.anchor, r.target);
    case 'stable': {
      if (r.rootPath) reached.push(r.rootPath);
      if (r.known !== false) return r.rootPath && r.anchor ? judgeFile(index, from, ref, r.rootPath, r.anchor, index.get(r.rootPath) ?? null) : null;
      const kind = r.what === 'page' ? 'page' : 'file';
      return {
        severity: 'warning',
        code: r.what === 'page' ? 'unknown-page-id' : 'unknown-file-id',
        message: `${cap(what)} \`${href}\` names a ${kind} that Quire does not have in this synced space (deleted on the server, or not pulled yet).`,
        fix: `Run \`quire sync\` to pull the latest; if it still appears, point the link at an existing ${kind}.`,
      };
    }
  }
}

function judgeFile(index: FolderIndex, from: IndexedFile, ref: Reference, rootPath: string, anchor: string | null, target: IndexedFile | null): Finding | null {
  const what = describe(ref);
  const href = ref.href.trim();
  if (target && target.file.kind === 'other' && !/\.md$/i.test(rootPath)) {
    return {
      severity: 'warning',
      code: 'asset-outside-assets',
      message: `${cap(what)} \`${href}\` uses ${rootPath}, which is not in .gitbook/assets/: Quire uploads only that folder, so it will be missing on the server.`,
      fix: `Move the file into ${posix.join(spaceFolderOf(from), ASSETS_PREFIX)} and update the path.`,
    };
  }
  if (anchor === null || anchor === '') return null;
  const anchors = index.anchors(rootPath);
  if (!anchors || hasAnchor(anchors, anchor)) return null;
  return {
    severity: 'warning',
    code: 'broken-anchor',
    message: `${cap(what)} \`${href}\` points to #${anchor}, which ${rootPath} does not have.`,
    fix: `Use the anchor of one of its headings, or add <a id="${anchor}"></a> in ${rootPath} where it should land.`,
  };
}

const spaceFolderOf = (f: IndexedFile): string => f.space.folder;

function hrefFrom(fromRootPath: string, toRootPath: string, anchor: string | null): string {
  try {
    return relativeHref(fromRootPath, toRootPath, anchor);
  } catch {
    return toRootPath;
  }
}

const cap = (s: string): string => (s.startsWith('the ') ? `The ${s.slice(4)}` : s);
