/**
 * A space's `.gitbook.yaml` (gitbook-config.ts reads it) against the space: what could not be
 * read, a first page or table of contents it names that is not there, and its redirects. A
 * redirect must lead to a page of the space (a file its table of contents lists, or its first
 * page), or visitors of the old address land nowhere; and its address must not be a page's own,
 * where GitBook shows the page and the redirect never applies. In a sync folder Quire lays a
 * space out as GitBook's Git Sync does by default, so a `root` or `structure` there is not used
 * (and is said so); its redirects are checked all the same.
 */
import { configPath, DEFAULT_CONFIG } from './gitbook-config';
import type { CheckedSpace } from './folder-index';
import type { Problem } from './problem';
import { DEFAULT_STRUCTURE } from './space-files';
import { summaryEntries, summaryEntryFile } from './summary';

/** The address GitBook gives the page in a file: `guide/install.md` is `guide/install`, `guide/README.md` is `guide`, the first page is the space's root. */
function pageAddress(path: string, readme: string): string {
  if (path === readme) return '';
  return path.replace(/(^|\/)README\.md$/i, '').replace(/\.md$/i, '');
}

/** A redirect's address as GitBook matches it: no query or anchor, no leading `./` or `/`, no trailing `/`, decoded. */
function sourceAddress(source: string): string {
  let address = source.trim().replace(/[?#].*$/s, '');
  try {
    address = decodeURIComponent(address);
  } catch {
    // a literal `%`
  }
  return address
    .replace(/^(?:\.?\/)+/, '')
    .replace(/\/+$/, '')
    .normalize('NFC');
}

/** The space's pages: what its table of contents lists and its first page, or every page file when it has no table of contents. */
function pagesOf(space: CheckedSpace, readme: string): Set<string> {
  const summary = space.files.find((f) => f.kind === 'summary');
  const files = space.files.filter((f) => f.kind === 'page').map((f) => f.path);
  if (!summary || summary.text === null) return new Set(files);
  const listed = new Set<string>([readme]);
  const walk = (entries: ReturnType<typeof summaryEntries>) => {
    for (const e of entries) {
      if (e.kind === 'page' && e.path !== null) listed.add(summaryEntryFile(e.path, summary.path));
      walk(e.children);
    }
  };
  walk(summaryEntries(summary));
  return new Set(files.filter((f) => listed.has(f)));
}

export function checkGitbookYaml(space: CheckedSpace): Problem[] {
  const yaml = space.gitbookYaml;
  if (!yaml) return [];
  const { config, path: file } = yaml;
  const problems: Problem[] = yaml.problems.map((p) => ({ file, line: p.line, severity: 'error', code: 'gitbook-yaml', message: p.message, fix: p.fix }));
  const structure = space.structure ?? DEFAULT_STRUCTURE;
  const where = space.folder === '' ? 'this folder' : `${space.folder}/`;
  const present = new Set(space.files.map((f) => f.path));
  if (!yaml.layoutApplied && (config.root !== DEFAULT_CONFIG.root || config.readme !== DEFAULT_CONFIG.readme || config.summary !== DEFAULT_CONFIG.summary)) {
    problems.push({
      file,
      line: null,
      severity: 'warning',
      code: 'gitbook-yaml',
      message: `Quire lays a synced space out as GitBook's Git Sync does by default (README.md and SUMMARY.md in ${where}), so the root and structure of this .gitbook.yaml are not used here.`,
      fix: 'Remove root and structure from it, or keep it only in the Git repository GitBook syncs with.',
    });
  }
  if (yaml.layoutApplied) {
    for (const key of ['readme', 'summary'] as const) {
      if (config[key] === DEFAULT_CONFIG[key] || present.has(structure[key])) continue;
      problems.push({
        file,
        line: null,
        severity: 'error',
        code: 'gitbook-yaml',
        message: `structure.${key} names ${config[key]}, which is not in ${where}: GitBook cannot find the space's ${key === 'readme' ? 'first page' : 'table of contents'}.`,
        fix: `Create ${config[key]} in ${where}, or point structure.${key} at the file (from root).`,
      });
    }
  }
  const pages = pagesOf(space, structure.readme);
  const addresses = new Map([...pages].map((p) => [pageAddress(p, structure.readme), p]));
  for (const r of config.redirects) {
    const at = { file, line: r.line };
    const shadowing = addresses.get(sourceAddress(r.source));
    if (shadowing !== undefined) {
      problems.push({
        ...at,
        severity: 'warning',
        code: 'redirect-shadowed',
        message: `The redirect from \`${r.source}\` never applies: that address is the page ${shadowing}'s own, and GitBook shows the page.`,
        fix: 'Remove the redirect, or move the page and keep the redirect for its old address.',
      });
    }
    const target = configPath(r.target.replace(/\/$/, '/README.md'));
    const anchor = r.target.includes('#');
    if (target !== null && !anchor && pages.has(target)) continue;
    const reason = anchor
      ? 'which names an anchor: GitBook redirects to a page, not to a place in it'
      : target === null
        ? 'which leads out of the folder'
        : present.has(target)
          ? `${target}, which ${space.files.some((f) => f.kind === 'summary') ? 'the table of contents does not list' : 'is no page'}, so it is no page of the space`
          : `${target}, which does not exist in ${where}`;
    problems.push({
      ...at,
      severity: 'error',
      code: 'redirect-target',
      message: `The redirect from \`${r.source}\` leads to ${anchor || target === null ? `\`${r.target}\`, ${reason}` : reason}.`,
      fix: 'Point it at the file of a page of the space, from root (e.g. `guide/install.md`), or remove it.',
    });
  }
  return problems;
}
