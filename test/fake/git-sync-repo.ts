/**
 * A Git Sync repository (test/fixtures/git-sync/<name>: SUMMARY.md, page files, .gitbook/assets)
 * loaded into a fake space as GitBook holds it once it has imported it:
 *
 * - the page tree from SUMMARY.md: `## Group` headings own the entries below them, `* [Title](path)`
 *   entries nest by indentation, an entry to a URL is a link page;
 * - each page's slug from its path as Git Sync writes it (`x.md` and `x/README.md` are `x`; the
 *   space's first page is `README.md` (or what `.gitbook.yaml`'s `structure.readme` names), its
 *   slug the folder its children live in, else `readme`; SUMMARY.md may be named there too;
 *   a group's slug the folder its pages live in);
 * - each page's fields from its frontmatter (description, hidden, noIndex, noRobotsIndex, icon,
 *   emoji, and Git Sync's cover, coverY, coverHeight, layout, tags), its title from its `# heading`
 *   (else SUMMARY.md's), its body after the heading;
 * - every image or link of a body that leads to an asset (from the page's folder, or from the
 *   root: `/x.png`) stored as `/files/<id>`, every link to a page resolved as the fake resolves
 *   links a write sends (GitBook's import: ref-resolution.ts) to `/pages/<id>#anchor`, the rest
 *   (broken in the repository, or leading to something that is no page nor asset) as written;
 * - each asset of `.gitbook/assets/` a file of the space, named by its file name (also in a folder there).
 *
 * Ids are made from the paths, so they are the same in every run.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { load } from 'js-yaml';
import { PageIndex } from './page-index';
import { resolveSubmittedRefs } from './ref-resolution';
import { rewriteReferences, type RefSite } from './ref-scanner';
import type { FakeStore, PageSeed } from './store';

export interface RepoPage {
  id: string;
  /** Its title: the `# heading` of its file, else its SUMMARY.md entry. */
  title: string;
  kind: 'document' | 'group' | 'link';
  /** The page's file in the repository (documents). */
  file: string | null;
  depth: number;
}

export interface LoadedRepo {
  spaceId: string;
  dir: string;
  /** Every page, in tree order. */
  pages: RepoPage[];
  /** File in the repository -> page id. */
  pageByFile: Map<string, string>;
  /** `.gitbook/assets/<name>` -> file id. */
  fileByPath: Map<string, string>;
}

interface Entry {
  title: string;
  target: string;
  depth: number;
  group: number | null;
  line: number;
}

const idFor = (space: string, path: string): string => createHash('sha1').update(`${space}\0${path}`).digest('base64url').replace(/[-_]/g, 'x').slice(0, 20);

/** The file a SUMMARY.md entry (or a link) names: a folder means its README.md. */
const fileOf = (path: string): string => (path === '' || path.endsWith('/') ? `${path}README.md` : path);

/** An HTML attribute's value as the browser reads it (`&#x27;` is `'`). */
function unentity(value: string): string {
  const named: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>' };
  return value.replace(/&(#x[0-9a-f]+|#\d+|amp|quot|apos|lt|gt);/gi, (_m, e: string) => {
    const name = named[e.toLowerCase()];
    if (name !== undefined) return name;
    return String.fromCodePoint(e[1]?.toLowerCase() === 'x' ? Number.parseInt(e.slice(2), 16) : Number.parseInt(e.slice(1), 10));
  });
}

const unescapeMarkdown = (text: string): string => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');

function decode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The first page and table of contents a repository's `.gitbook.yaml` names (`structure:`), README.md and SUMMARY.md by default. */
export function repoStructure(dir: string): { readme: string; summary: string } {
  const path = join(dir, '.gitbook.yaml');
  const config = existsSync(path) ? ((load(readFileSync(path, 'utf8')) ?? {}) as { structure?: { readme?: string; summary?: string } }) : {};
  const clean = (p: string | undefined, fallback: string) => (p ? posix.normalize(p).replace(/^\.\//, '') : fallback);
  return { readme: clean(config.structure?.readme, 'README.md'), summary: clean(config.structure?.summary, 'SUMMARY.md') };
}

export function loadGitSyncRepo(store: FakeStore, orgId: string, dir: string, space: { id: string; title: string }): LoadedRepo {
  const { readme, summary } = repoStructure(dir);
  const lines = readFileSync(join(dir, summary), 'utf8').split('\n');
  const groups: { title: string; slug: string | null }[] = [];
  const entries: Entry[] = [];
  lines.forEach((line, i) => {
    const heading = /^## (.*?)(?: <a href="#([^"]*)" id="[^"]*"><\/a>)?\s*$/.exec(line);
    if (heading) {
      groups.push({ title: unescapeMarkdown(heading[1]!), slug: heading[2] ?? null });
      return;
    }
    const entry = /^(\s*)[*-] \[(.*)\]\((<[^>]*>|[^)\s]*)(?: "[^"]*")?\)\s*$/.exec(line);
    if (!entry) return;
    const target = entry[3]!.replace(/^<|>$/g, '');
    entries.push({
      title: unescapeMarkdown(entry[2]!),
      target,
      depth: Math.floor(entry[1]!.length / 2),
      group: groups.length > 0 ? groups.length - 1 : null,
      line: i,
    });
  });

  // The tree: each entry under the last shallower one of its group (or the group itself).
  interface Node {
    entry: Entry | null;
    title: string;
    kind: RepoPage['kind'];
    file: string | null;
    children: Node[];
    slug?: string;
    groupIndex?: number;
  }
  const roots: Node[] = [];
  const groupNodes = groups.map((g, i): Node => ({ entry: null, title: g.title, kind: 'group', file: null, children: [], groupIndex: i }));
  let placedGroups = 0;
  const stack: Node[] = [];
  for (const e of entries) {
    while (placedGroups <= (e.group ?? -1)) {
      roots.push(groupNodes[placedGroups]!);
      placedGroups++;
      stack.length = 0;
    }
    const isLink = /^[a-z][a-z0-9+.-]*:/i.test(e.target);
    const node: Node = { entry: e, title: e.title, kind: isLink ? 'link' : 'document', file: isLink ? null : fileOf(decode(e.target)), children: [] };
    while (stack.length > e.depth) stack.pop();
    const parent = stack[stack.length - 1] ?? (e.group !== null ? groupNodes[e.group]! : null);
    (parent ? parent.children : roots).push(node);
    stack.length = e.depth;
    stack.push(node);
  }
  while (placedGroups < groupNodes.length) roots.push(groupNodes[placedGroups++]!);

  // Slugs from where Git Sync put the files.
  const folderOf = (file: string) => posix.dirname(file);
  const firstFile = (n: Node): string | null => {
    for (const c of n.children) {
      if (c.file && c.file !== readme) return c.file;
      const deeper = firstFile(c);
      if (deeper) return deeper;
    }
    return null;
  };
  const assignSlugs = (nodes: Node[], parentFolder: string): void => {
    for (const n of nodes) {
      if (n.kind === 'link') continue;
      let folder: string;
      if (n.kind === 'group') {
        const inside = firstFile(n);
        const rel = inside ? posix.relative(parentFolder === '.' ? '' : parentFolder, inside).split('/')[0]! : '';
        n.slug = inside && rel !== posix.basename(inside) ? rel : (groups[n.groupIndex!]!.slug ?? slugify(n.title));
        folder = parentFolder === '.' ? n.slug : `${parentFolder}/${n.slug}`;
      } else if (n.file === readme) {
        // The first page: its children's folder names it.
        const child = n.children.find((c) => c.file)?.file;
        n.slug = child ? posix.basename(folderOf(child)) : 'readme';
        folder = child ? folderOf(child) : n.slug;
      } else {
        const file = n.file!;
        n.slug = posix.basename(file) === 'README.md' ? posix.basename(folderOf(file)) : posix.basename(file, '.md');
        folder = posix.basename(file) === 'README.md' ? folderOf(file) : file.replace(/\.md$/, '');
      }
      assignSlugs(n.children, folder);
    }
  };
  assignSlugs(roots, '.');

  // Ids, files and assets.
  const pageByFile = new Map<string, string>();
  const pages: RepoPage[] = [];
  const idOf = new Map<Node, string>();
  const depths = new Map<Node, number>();
  const depthOf = (n: Node) => depths.get(n) ?? 0;
  const walk = (nodes: Node[], path: string, depth = 0): void => {
    for (const n of nodes) {
      depths.set(n, depth);
      const key = n.file ?? `${path}/${n.kind}:${n.title}`;
      const id = idFor(space.id, key);
      idOf.set(n, id);
      if (n.file) pageByFile.set(n.file, id);
      // The title GitBook holds: the heading's text, its escapes read (`Pools \[deprecated]` is `Pools [deprecated]`).
      const written = n.file ? readPage(readFileSync(join(dir, n.file), 'utf8')).title : null;
      const heading = written === null ? null : unescapeMarkdown(written);
      pages.push({ id, title: heading ?? n.title, kind: n.kind, file: n.file, depth: depthOf(n) });
      walk(n.children, key, depth + 1);
    }
  };
  walk(roots, '');
  // Assets, also in folders of `.gitbook/assets` (a repository's own grouping): a file of the space is named, not placed.
  const fileByPath = new Map<string, string>();
  const walkAssets = (rel: string): void => {
    const abs = join(dir, rel);
    if (!existsSync(abs)) return;
    for (const e of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = `${rel}/${e.name}`;
      if (e.isDirectory()) walkAssets(path);
      else fileByPath.set(path, idFor(space.id, `asset:${path.slice('.gitbook/assets/'.length)}`));
    }
  };
  walkAssets('.gitbook/assets');

  // Assets by their path (GitBook stores them as file references; the fake keeps asset paths as written).
  const assetRef = (file: string, site: RefSite): string | undefined => {
    const target = site.kind === 'html' ? unentity(site.target.trim()) : site.target.trim();
    if (target === '' || target.startsWith('#') || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(target)) return undefined;
    const path = decode(target.split('#')[0]!);
    const joined = path.startsWith('/') ? path.slice(1) : posix.join(posix.dirname(file), path);
    const asset = fileByPath.get(posix.normalize(joined));
    return asset ? `/files/${asset}` : undefined;
  };

  const seedOf = (n: Node): PageSeed => {
    const id = idOf.get(n)!;
    const children = n.children.map(seedOf);
    if (n.kind === 'group') return { id, title: n.title, type: 'group', slug: n.slug!, pages: children };
    if (n.kind === 'link') return { id, title: n.title, type: 'link', href: n.entry!.target };
    const { fields, title, body } = readPage(readFileSync(join(dir, n.file!), 'utf8'));
    const markdown = rewriteReferences(body, (site) => assetRef(n.file!, site));
    return { id, title: title === null ? n.title : unescapeMarkdown(title), slug: n.slug!, markdown, ...fields, pages: children };
  };
  store.addSpace(orgId, { id: space.id, title: space.title, pages: roots.map(seedOf) });
  for (const [path, id] of fileByPath) store.addFile(space.id, { id, name: posix.basename(path), bytes: readFileSync(join(dir, path)) });
  // Links to pages resolved as GitBook's import resolves them (the fake's write model).
  for (const page of pages) {
    if (page.kind !== 'document') continue;
    const stored = store.page(space.id, page.id).markdown;
    const index = PageIndex.ofRevision(store.currentRevision(space.id));
    const resolved = resolveSubmittedRefs(stored, { index, pageId: page.id, pageRefs: new Map(), fileRefs: new Map(), unresolvedLinks: 'keep' });
    if (resolved !== stored) store.editPage(space.id, page.id, { markdown: resolved });
  }
  return { spaceId: space.id, dir, pages, pageByFile, fileByPath };
}

/** A page file's fields (from its frontmatter), title (its `# heading`) and body (after the heading and the blank line). */
export function readPage(text: string): { fields: Partial<PageSeed>; title: string | null; body: string } {
  let rest = text;
  const fields: Partial<PageSeed> = {};
  const fm = /^---\n([\s\S]*?)\n---\n/.exec(rest);
  if (fm) {
    const data = (load(fm[1]!) ?? {}) as Record<string, unknown>;
    for (const key of ['description', 'icon', 'emoji', 'cover'] as const) if (typeof data[key] === 'string') fields[key] = data[key] as string;
    for (const key of ['hidden', 'noIndex', 'noRobotsIndex'] as const) if (data[key] === true) fields[key] = true;
    for (const key of ['coverY', 'coverHeight'] as const) if (typeof data[key] === 'number') fields[key] = data[key] as number;
    if (data.layout && (typeof data.layout === 'object' || typeof data.layout === 'string')) fields.layout = data.layout as Record<string, unknown> | string;
    if (Array.isArray(data.tags)) fields.tags = data.tags.map(String);
    rest = rest.slice(fm[0].length);
  }
  const heading = /^\n*# (.*)\n(?:\n|$)/.exec(rest);
  if (!heading) return { fields, title: null, body: rest };
  return { fields, title: heading[1]!.trim(), body: rest.slice(heading[0].length) };
}

function slugify(title: string): string {
  return (
    title
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'group'
  );
}
