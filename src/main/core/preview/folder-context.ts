/**
 * A RenderContext over a checked folder (core/check's FolderIndex): links resolve exactly as
 * `quire check` resolves them, and the host says what URL each kind of target gets (its own
 * routes for the preview server, view links and inline images for the app).
 */
import { parseIncludeRef, parsePageFile, type SummaryEntry } from '../content';
import type { FolderIndex, Resolution } from '../check';
import { anchorTarget, joinRoot, resolveHref, spaceVariables, specFinding, specOfBlock, summaryEntries, summaryEntryFile } from '../check';
import { describeOperation } from '../openapi';
import type { LinkedPage, LinkOutcome, RenderContext } from './context';
import { operationHtml, operationProblem } from './openapi-html';
import { isSafeUrl } from './sanitize';

export interface PreviewUrls {
  /** The URL of a page (a markdown file, root-relative), with an anchor (decoded) or null. */
  page(rootPath: string, anchor: string | null): string;
  /** The URL of any other file (an image, an attachment), root-relative. */
  asset(rootPath: string): string | null;
}

const titleCache = new WeakMap<object, string | null>();

const summaryTitles = new WeakMap<object, Map<string, string>>();

/** The title SUMMARY.md gives the page at `rootPath`, or null. */
function summaryTitle(index: FolderIndex, rootPath: string): string | null {
  const found = index.get(rootPath);
  const summary = found?.space.files.find((f) => f.kind === 'summary');
  if (!found || !summary) return null;
  let titles = summaryTitles.get(summary);
  if (!titles) {
    titles = new Map();
    const walk = (entries: readonly SummaryEntry[]) => {
      for (const e of entries) {
        const file = e.kind === 'page' && e.path !== null ? summaryEntryFile(e.path, summary.path) : null;
        if (file !== null && !titles!.has(file)) titles!.set(file, e.title);
        walk(e.children);
      }
    };
    walk(summaryEntries(summary));
    summaryTitles.set(summary, titles);
  }
  return titles.get(found.file.path) || null;
}

/**
 * A page's title as GitBook shows it: frontmatter `title`, else its `# Title` heading, else the
 * title SUMMARY.md gives it (GitBook's import takes that for a page that does not start with its
 * heading, one opening with a `<meta>` tag say), else its file name.
 */
export function pageTitle(index: FolderIndex, rootPath: string): string {
  const file = index.get(rootPath)?.file;
  let own: string | null = null;
  if (file && file.text !== null) {
    const cached = titleCache.get(file);
    if (cached !== undefined) own = cached;
    else {
      try {
        own = parsePageFile(file.text).title;
      } catch {
        // unparseable frontmatter: SUMMARY.md's title or the file name stands in
      }
      titleCache.set(file, own);
    }
  }
  return own ?? summaryTitle(index, rootPath) ?? rootPath.slice(rootPath.lastIndexOf('/') + 1).replace(/\.md$/i, '');
}

/** The id an anchor reaches in the page at `rootPath` (a heading written `#math--tex` is `math-and-tex` there), else the anchor as written. */
function targetId(index: FolderIndex, rootPath: string, anchor: string | null): string | null {
  if (anchor === null || anchor === '') return anchor;
  const anchors = index.anchors(rootPath);
  return (anchors && anchorTarget(anchors, anchor)) || anchor;
}

function outcome(index: FolderIndex, from: string, r: Resolution, urls: PreviewUrls, attribute: string): LinkOutcome {
  const ok = (href: string | null): LinkOutcome => ({ href, external: false, broken: null });
  switch (r.kind) {
    case 'external':
      return isSafeUrl(r.url, attribute) ? { href: r.url, external: true, broken: null } : { href: null, external: false, broken: 'Unsafe link: not shown' };
    case 'same-page':
      return ok(`#${encodeURIComponent(targetId(index, from, r.anchor) ?? '')}`);
    case 'file': {
      const isPage = /\.md$/i.test(r.rootPath);
      if (!r.target && !index.exists(r.rootPath)) return { href: null, external: false, broken: `${r.rootPath} does not exist` };
      return ok(isPage && attribute === 'href' ? urls.page(r.rootPath, targetId(index, r.rootPath, r.anchor)) : urls.asset(r.rootPath));
    }
    case 'missing':
      return { href: null, external: false, broken: `${r.rootPath} does not exist` };
    case 'outside':
      return { href: null, external: false, broken: 'Points outside this folder' };
    case 'stable':
      if (r.rootPath === null) return { href: null, external: false, broken: `A ${r.what} Quire does not have here (${r.id})` };
      return ok(r.what === 'page' && attribute === 'href' ? urls.page(r.rootPath, r.anchor) : urls.asset(r.rootPath));
    case 'other':
      return { href: null, external: false, broken: 'Not a link GitBook can follow' };
  }
}

/** The file of a reusable content an include names as GitBook stores it (`/reusable-content/<id>`), when the mirror knows it. */
function stableInclude(index: FolderIndex, from: string, href: string): string | null {
  const ref = parseIncludeRef(href.trim());
  const spaceId = ref ? (ref.spaceId ?? index.spaceOf(from)?.spaceId ?? null) : null;
  if (!ref || spaceId === null) return null;
  const folder = index.mirror?.spaceFolders.get(spaceId);
  const path = index.mirror?.includes?.get(spaceId)?.get(ref.id);
  return folder === undefined || path === undefined ? null : joinRoot(folder, path);
}

export function folderRenderContext(index: FolderIndex, rootPath: string, urls: PreviewUrls): RenderContext {
  return {
    rootPath,
    link: (href, from, attribute) => outcome(index, from, resolveHref(index, from, href), urls, attribute),
    linkedPage(href, from): LinkedPage | null {
      const r = resolveHref(index, from, href);
      const target = r.kind === 'file' || (r.kind === 'stable' && r.what === 'page') ? r.rootPath : null;
      if (target === null || !/\.md$/i.test(target) || !index.get(target)) return null;
      return { title: pageTitle(index, target), href: urls.page(target, r.kind === 'file' || r.kind === 'stable' ? r.anchor : null) };
    },
    variables(from) {
      const space = index.spaceOf(from);
      return (space && spaceVariables(space)) ?? {};
    },
    include(href, from) {
      const r = resolveHref(index, from, href);
      const rootPath = r.kind === 'file' ? r.rootPath : stableInclude(index, from, href);
      const text = rootPath === null ? null : index.get(rootPath)?.file.text;
      return text === null || text === undefined ? null : { rootPath: rootPath!, text };
    },
    openapi(name, args, from) {
      const spec = specOfBlock(index, from, name, args);
      if (!spec) return null;
      const method = args.method ?? '';
      const path = name === 'openapi-webhook' ? (args.name ?? '') : name === 'openapi-schemas' ? (args.schemas ?? '') : (args.path ?? '');
      const finding = specFinding(spec, name, args);
      if (finding) return operationProblem(name === 'openapi-schemas' ? 'Schemas' : method, path, finding.message);
      if (!spec.read.ok || name === 'openapi-webhook' || name === 'openapi-schemas') return null;
      const op = describeOperation(spec.read.spec, method, path);
      return op && operationHtml(op, spec.file);
    },
  };
}
