/**
 * Where the folder's paths differ from GitBook's own — the paths Git Sync writes for main as last
 * synced — and why (core/naming): what `quire status` reports. One entry per page whose own
 * name (or file) differs; the pages below it, whose paths differ only through it, are counted.
 * A page the writer placed (moved or renamed here, not merged yet) is theirs, not a deviation —
 * unless its file stays off the path the layout gives it (`kept`: plan/kept-paths.ts), where
 * GitBook's path is the one its place in the folder's tree gives it.
 */
import { type FolderNode, pageKind } from '../content';
import { slugFor } from './change-request';
import type { Mirror } from '../mirror';
import { GONE_REMOTELY } from './remote';
import { collectGarbage, LARGE_PULL } from './memory';
import { storedRules } from './name-rules';
import { explainName, gitbookLayout, gitbookName, type LayoutPage, type NameDeviation, nameBudget, placeOf, PORTABLE_NAMES, RESERVED_FILES } from '../naming';

export interface PathDeviation {
  pageId: string;
  title: string;
  /** Where GitBook's Git Sync puts the page: its file, or (with children, and groups) its folder, `x/`. */
  gitbookPath: string;
  /** Where it is here. */
  path: string;
  /** `kept`: its file stays where the writer put it (or beside files of theirs); the others: why its name differs. */
  reason: NameDeviation | 'kept';
  /** Pages below it whose paths differ only through it. */
  below: number;
}

/**
 * The deviations as the last cycle kept them (`keepPathDeviations`), while main's tree and the
 * folder's are as they were then (the mirror forgets them when either changes), and the volume's
 * name rules and the pages waiting to be pushed too; else worked out now. What `quire status`
 * reads: working them out costs ~30-60 ms over 2,000 pages, reading them back two queries.
 */
export function pathDeviations(mirror: Pick<Mirror, 'catalog' | 'content' | 'folder'>, spaceId: string): PathDeviation[] {
  return keptDeviations(mirror, spaceId, inputsNow(mirror, spaceId)) ?? workOutDeviations(mirror, spaceId);
}

/** After a cycle: the space's deviations kept for `pathDeviations`, unless those kept are still current. */
export function keepPathDeviations(mirror: Pick<Mirror, 'catalog' | 'content' | 'folder'>, spaceId: string): void {
  const now = inputsNow(mirror, spaceId);
  if (keptDeviations(mirror, spaceId, now)) return;
  mirror.folder.keepDeviations(spaceId, { ...now, deviations: JSON.stringify(workOutDeviations(mirror, spaceId)) });
}

type DeviationInputs = { rules: string; pending: string };

/** What the deviations depend on besides the two trees. */
const inputsNow = (mirror: Pick<Mirror, 'catalog' | 'folder'>, spaceId: string): DeviationInputs => ({
  rules: JSON.stringify(storedRules(mirror)),
  pending: JSON.stringify(mirror.folder.pending(spaceId).sort()),
});

function keptDeviations(mirror: Pick<Mirror, 'folder'>, spaceId: string, now: DeviationInputs): PathDeviation[] | null {
  const kept = mirror.folder.keptDeviations(spaceId);
  if (!kept || kept.rules !== now.rules || kept.pending !== now.pending) return null;
  try {
    const deviations = JSON.parse(kept.deviations) as unknown;
    return Array.isArray(deviations) ? (deviations as PathDeviation[]) : null;
  } catch {
    return null;
  }
}

function workOutDeviations(mirror: Pick<Mirror, 'catalog' | 'content' | 'folder'>, spaceId: string): PathDeviation[] {
  const rows = mirror.content.baseOutline(spaceId, GONE_REMOTELY).filter((r) => r.flagged === 0);
  const children = new Map<string | null, typeof rows>();
  for (const r of rows) {
    const siblings = children.get(r.parentId);
    if (siblings) siblings.push(r);
    else children.set(r.parentId, [r]);
  }
  const build = (parent: string | null, depth: number): LayoutPage[] =>
    (children.get(parent) ?? [])
      .sort((a, b) => a.position - b.position || (a.id < b.id ? -1 : 1))
      .map((r) => ({ id: r.id, title: r.title, type: r.type, ...(r.slug !== null ? { slug: r.slug } : {}), pages: depth < 256 ? build(r.id, depth + 1) : [] }));
  const ideal = gitbookLayout(build(null, 0));
  if (rows.length > LARGE_PULL) collectGarbage(); // the tree built for it is garbage now: what follows does not add to it
  const rules = storedRules(mirror) ?? PORTABLE_NAMES;
  const nodes = new Map(mirror.folder.tree(spaceId).map((n) => [n.key, n]));
  const byId = new Map(rows.map((r) => [r.id, r]));

  const out: PathDeviation[] = [];
  const walk = (parent: string | null, within: PathDeviation | null): void => {
    for (const r of children.get(parent) ?? []) {
      const want = ideal.get(r.id);
      const node = nodes.get(r.id);
      let here = within;
      if (want && node && !node.placedLocally && !node.pending && !node.pathKept && want.name !== null) {
        // A page with children is shown by its folder (the first page's file is README.md either way).
        const wantPath = want.folder !== null && node.folder !== null ? `${want.folder}/` : want.file;
        const path = want.folder !== null && node.folder !== null ? `${node.folder}/` : node.path;
        const fileAside = node.path !== null && want.file !== null && baseOf(node.path) !== baseOf(want.file) && node.name === want.name;
        if (wantPath !== null && path !== null && (node.name !== want.name || fileAside)) {
          const kind = pageKind(r.type);
          const hasFolder = want.folder !== null;
          const dir = parent === null ? '' : (nodes.get(parent)?.folder ?? '');
          const holds = parent === null ? 'root' : byId.get(parent) && pageKind(byId.get(parent)!.type) === 'group' ? 'group' : 'page';
          const siblings = (children.get(parent) ?? []).flatMap((s) => (s.id === r.id ? [] : [ideal.get(s.id)?.name ?? '']));
          const reason = fileAside
            ? 'file-in-the-way'
            : explainName(want.name, node.name ?? '', {
                budget: nameBudget(dir),
                rules,
                use: hasFolder || kind === 'group' ? 'folder' : 'file',
                reserved: RESERVED_FILES[holds],
                siblings,
              });
          here = { pageId: r.id, title: r.title, gitbookPath: wantPath, path, reason, below: 0 };
          out.push(here);
        } else if (within && wantPath !== null && path !== wantPath) {
          within.below++;
        }
      }
      walk(r.id, here);
    }
  };
  walk(null, null);
  return [...out, ...keptPaths([...nodes.values()], (id) => byId.get(id)?.slug ?? null)];
}

/**
 * Files kept where the writer put them, in the folder's tree order: GitBook's path is where its
 * place in the tree puts it (main's slug, or the one a push gives its name), a page with
 * children shown by its folder when only that differs.
 */
function keptPaths(nodes: readonly FolderNode[], slugOf: (id: string) => string | null): PathDeviation[] {
  const byKey = new Map(nodes.map((n) => [n.key, n]));
  const children = new Map<string | null, FolderNode[]>();
  for (const n of nodes) {
    const siblings = children.get(n.parentKey);
    if (siblings) siblings.push(n);
    else children.set(n.parentKey, [n]);
  }
  const ordered = (parent: string | null) => (children.get(parent) ?? []).sort((a, b) => a.position - b.position || (a.key < b.key ? -1 : 1));
  const firstIn = (parent: string | null, depth: number): string | null => {
    for (const n of ordered(parent)) {
      if (n.kind === 'document') return n.key;
      const inside = n.kind === 'group' && depth < 64 ? firstIn(n.key, depth + 1) : null;
      if (inside !== null) return inside;
    }
    return null;
  };
  const first = firstIn(null, 0);
  const out: PathDeviation[] = [];
  const walk = (parent: string | null, depth: number): void => {
    for (const n of ordered(parent)) {
      if (n.pathKept && n.name !== null) {
        const dir = parent === null ? '' : (byKey.get(parent)?.folder ?? '');
        const name = gitbookName({ slug: slugOf(n.key) ?? slugFor(n.name), title: n.title }).normalize('NFC');
        const want = placeOf(dir, name, n.kind, (children.get(n.key)?.length ?? 0) > 0, n.key === first);
        const deviation = { pageId: n.key, title: n.title, reason: 'kept' as const, below: 0 };
        if (want.file !== null && n.path !== null && want.file !== n.path) out.push({ ...deviation, gitbookPath: want.file, path: n.path });
        else if (want.folder !== null && n.folder !== null && want.folder !== n.folder)
          out.push({ ...deviation, gitbookPath: `${want.folder}/`, path: `${n.folder}/` });
      }
      if (depth < 256) walk(n.key, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

const baseOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);

/** Why a path differs from GitBook's, in words (what the writer may do about it included). */
export function describeDeviation(reason: PathDeviation['reason']): string {
  switch (reason) {
    case 'kept':
      return 'its file stays where you put it (or beside files of yours): Quire moves it only when main moves the page, or when you ask';
    case 'characters':
      return 'the file system here cannot hold some of its characters';
    case 'windows-name':
      return 'Windows reserves that name';
    case 'hidden':
      return 'a name starting with a dot is hidden, and Quire does not read hidden files';
    case 'too-long':
      return 'the name is longer than Quire writes (120 bytes)';
    case 'empty':
      return 'nothing of its name is left that a file system can hold';
    case 'reserved':
      return "that is the folder's own README.md (or the space's SUMMARY.md)";
    case 'case':
      return 'another page there has the same name in other letter case, and this volume does not tell case apart';
    case 'taken':
      return 'another page there has that name';
    case 'file-in-the-way':
      return 'a file of yours is at that path, and Quire never moves or renames your files';
  }
}
