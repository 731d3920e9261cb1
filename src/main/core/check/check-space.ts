/**
 * The whole check of the spaces in a FolderIndex (pure): each file's own problems (frontmatter,
 * blocks, links), then the space-wide ones (SUMMARY.md, .gitbook.yaml and its redirects, names,
 * encodings and sizes, unused assets). `checkPage` gives one file's share of it, cheaply, for the preview.
 */
import { blockProblems } from './blocks';
import { checkEncodingAndSize } from './encoding';
import type { CheckedSpace, FolderIndex, IndexedFile } from './folder-index';
import { joinRoot } from './folder-index';
import { checkFrontmatter } from './frontmatter';
import { checkGitbookYaml } from './gitbook-yaml';
import { checkLinks } from './links';
import { openapiProblems } from './openapi-blocks';
import { checkVariables } from './variables';
import { checkCaseClashes } from './case-clashes';
import { type Problem, sortProblems } from './problem';
import { atOnce, type Steps } from './steps';
import { checkSummary } from './summary';
import { unusedAssets } from './unused-assets';

export interface SpaceReport {
  spaceId: string | null;
  title: string;
  /** The space folder relative to the checked root ('' when the root is the space). */
  folder: string;
  problems: Problem[];
}

/** Problems inside one markdown file (page, reusable content), and the files its references reach. */
function fileProblems(index: FolderIndex, f: IndexedFile): { problems: Problem[]; reached: string[] } {
  const text = f.file.text;
  if (text === null || (f.file.kind !== 'page' && f.file.kind !== 'include')) return { problems: [], reached: [] };
  const links = checkLinks(index, f);
  return {
    problems: [
      ...checkFrontmatter(f.rootPath, text),
      ...blockProblems(f.rootPath, text),
      ...links.problems,
      ...openapiProblems(index, f),
      ...checkVariables(f),
    ],
    reached: links.reached,
  };
}

/** Checks every space of the index; reports in the index's order, problems sorted. */
export function checkSpaces(index: FolderIndex, spaces: readonly CheckedSpace[] = index.spaces): SpaceReport[] {
  return atOnce(checkingSpaces(index, spaces));
}

/** checkSpaces, one step per file, saying how many of how many are done (steps.ts). */
export function* checkingSpaces(index: FolderIndex, spaces: readonly CheckedSpace[] = index.spaces): Steps<SpaceReport[]> {
  const reached = new Set<string>();
  const total = spaces.reduce((n, s) => n + s.files.length, 0);
  let done = 0;
  const perSpace: { space: CheckedSpace; problems: Problem[] }[] = [];
  for (const space of spaces) {
    const problems: Problem[] = [];
    for (const file of space.files) {
      yield { done: done++, total };
      const indexed = index.get(joinRoot(space.folder, file.path));
      if (!indexed) continue;
      const found = fileProblems(index, indexed);
      problems.push(...found.problems);
      for (const r of found.reached) reached.add(r);
    }
    const summary = checkSummary(space);
    problems.push(...summary.problems, ...checkGitbookYaml(space), ...checkCaseClashes(space), ...checkEncodingAndSize(space));
    perSpace.push({ space, problems });
  }
  return perSpace.map(({ space, problems }) => ({
    spaceId: space.spaceId,
    title: space.title,
    folder: space.folder,
    problems: sortProblems([...problems, ...unusedAssets(space, reached)]),
  }));
}

const spaceWideMemo = new WeakMap<CheckedSpace, { revision: number; problems: Problem[] }>();

/** SUMMARY.md, names, encodings and sizes of a space: the same for every page until a file changes. */
function spaceWideProblems(index: FolderIndex, space: CheckedSpace): Problem[] {
  const memo = spaceWideMemo.get(space);
  if (memo && memo.revision === index.revision) return memo.problems;
  const problems = [...checkSummary(space).problems, ...checkGitbookYaml(space), ...checkCaseClashes(space), ...checkEncodingAndSize(space)];
  spaceWideMemo.set(space, { revision: index.revision, problems });
  return problems;
}

/** The problems of one file (root-relative path): its own, and what the space-wide checks say about it. Unused assets are left out. */
export function checkPage(index: FolderIndex, rootPath: string): Problem[] {
  const f = index.get(rootPath);
  if (!f) return [];
  const own = fileProblems(index, f).problems;
  const spaceWide = spaceWideProblems(index, f.space).filter((p) => p.file === rootPath);
  return sortProblems([...own, ...spaceWide]);
}
