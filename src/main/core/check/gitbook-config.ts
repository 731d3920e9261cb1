/**
 * `.gitbook.yaml`, the configuration GitBook's Git Sync reads from a repository (or from a
 * monorepo's project folder), as GitBook's docs describe it ("Content configuration",
 * "Monorepos"):
 *
 *   root: ./docs/                 the folder holding the space, from the file's folder (default ./)
 *   structure:
 *     readme: intro.md            the space's first page, from root (default README.md)
 *     summary: toc.md             its table of contents, from root (default SUMMARY.md)
 *   redirects:
 *     previous/page: new/page.md  an address of the space (from its root) -> the file of a page (from root)
 *
 * Paths may start with `./` and a folder may end with `/`; none may climb out of the folder. What
 * cannot be read is reported with its line, and the defaults stand in for it. Pure but for
 * `readGitbookConfig`, which reads the file.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export const CONFIG_FILE = '.gitbook.yaml';

/** Far more than any repository's redirects need (Filecoin's docs hold 400 of them in 30 KB). */
const MAX_CONFIG_BYTES = 1024 * 1024;

export interface Redirect {
  /** The address redirected, as written. */
  source: string;
  /** The page's file it leads to, as written. */
  target: string;
  /** 1-based line in the file. */
  line: number;
}

export interface GitbookConfig {
  /** The space's folder, relative to the folder holding the file ('' for that folder). */
  root: string;
  /** The first page and the table of contents, relative to root. */
  readme: string;
  summary: string;
  redirects: Redirect[];
}

export interface ConfigProblem {
  line: number | null;
  message: string;
  fix: string;
}

export const DEFAULT_CONFIG: GitbookConfig = { root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: [] };

type YamlModule = typeof import('yaml');
let yamlModule: YamlModule | undefined;
const yaml = (): YamlModule => (yamlModule ??= createRequire(import.meta.url)('yaml') as YamlModule);

/** A path of the configuration as GitBook reads it (`./docs/` is `docs`), or null when it climbs out or is not a path. */
export function configPath(written: string): string | null {
  const parts = written.trim().replace(/\\/g, '/').split('/');
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    out.push(part.normalize('NFC'));
  }
  return out.join('/');
}

/** Reads the text of a `.gitbook.yaml`: what it says, the defaults where it says nothing readable, and what could not be read. */
export function parseGitbookConfig(text: string): { config: GitbookConfig; problems: ConfigProblem[] } {
  const problems: ConfigProblem[] = [];
  const config: GitbookConfig = { ...DEFAULT_CONFIG, redirects: [] };
  const { parseDocument, LineCounter, isMap, isPair, isScalar } = yaml();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const lineOf = (node: { range?: [number, number, number] | null } | null | undefined): number | null =>
    node?.range ? lines.linePos(node.range[0]).line : null;
  if (doc.errors.length > 0) {
    const error = doc.errors[0]!;
    problems.push({
      line: lines.linePos(error.pos[0]).line,
      message: `.gitbook.yaml is not valid YAML (${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}), so GitBook cannot read it.`,
      fix: 'Fix the YAML on that line (GitBook’s docs, “Content configuration”, show its shape).',
    });
    return { config, problems };
  }
  if (doc.contents === null) return { config, problems };
  if (!isMap(doc.contents)) {
    problems.push({ line: 1, message: '.gitbook.yaml does not hold a mapping of settings.', fix: 'Write `root:`, `structure:` and `redirects:` as keys.' });
    return { config, problems };
  }
  const setting = (key: string, value: unknown, node: Parameters<typeof lineOf>[0], apply: (path: string) => void) => {
    const written = typeof value === 'string' ? value : null;
    const path = written === null ? null : configPath(written);
    if (path !== null && (key === 'root' || path !== '')) return apply(path);
    problems.push({
      line: lineOf(node),
      message: `\`${key}\` in .gitbook.yaml is ${written === null ? 'not a path' : `\`${written}\`, which leads out of the folder`}, so GitBook cannot use it.`,
      fix: `Write a path inside the repository${key === 'root' ? '' : ', from root'}, e.g. \`${key === 'root' ? './docs/' : key === 'readme' ? 'README.md' : 'SUMMARY.md'}\`.`,
    });
  };
  for (const pair of doc.contents.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const value = pair.value as { range?: [number, number, number] } | null;
    if (key === 'root') setting('root', isScalar(value) ? value.value : null, value ?? pair.key, (p) => (config.root = p));
    else if (key === 'structure' && isMap(value)) {
      for (const inner of value.items) {
        if (!isPair(inner) || !isScalar(inner.key)) continue;
        const name = String(inner.key.value);
        const v = inner.value as { range?: [number, number, number] } | null;
        if (name === 'readme' || name === 'summary') setting(name, isScalar(v) ? v.value : null, v ?? inner.key, (p) => (config[name] = p));
      }
    } else if (key === 'redirects' && isMap(value)) {
      for (const inner of value.items) {
        if (!isPair(inner) || !isScalar(inner.key)) continue;
        const target = isScalar(inner.value) ? inner.value.value : null;
        const line = lineOf(inner.key) ?? 1;
        if (typeof target === 'string') config.redirects.push({ source: String(inner.key.value), target, line });
        else
          problems.push({
            line,
            message: `The redirect from \`${String(inner.key.value)}\` leads to no file.`,
            fix: 'Write the file of a page after the colon, from root.',
          });
      }
    }
  }
  return { config, problems };
}

/** The `.gitbook.yaml` of a folder, read; null when it has none (a symlink is never followed). */
export function readGitbookConfig(dir: string): { config: GitbookConfig; problems: ConfigProblem[] } | null {
  const file = join(dir, CONFIG_FILE);
  try {
    const st = lstatSync(file);
    if (!st.isFile()) return null;
    if (st.size > MAX_CONFIG_BYTES) {
      return {
        config: { ...DEFAULT_CONFIG, redirects: [] },
        problems: [
          {
            line: null,
            message: `.gitbook.yaml is ${st.size.toLocaleString('en-US')} bytes: too large to be a configuration.`,
            fix: 'Trim it to its settings and redirects.',
          },
        ],
      };
    }
    return parseGitbookConfig(readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
}
