/**
 * OpenAPI blocks and the local specification each renders from (core/openapi's LocalSpecs): the
 * one answer `quire check` and the preview share. A block whose specification is here and lacks
 * what the block names (an operation, a webhook, a schema) is a warning, as is a specification
 * that does not parse: GitBook shows an error in the block's place once that file is what it has
 * (a spec edited here is not GitBook's until it is published, hence not an error). A block whose
 * specification is not here (not pulled, a URL of another server) is not judged.
 */
import { scanBlocks } from '../content';
import { findOperation, findWebhook, type LocalSpec, schemaNames } from '../openapi';
import type { FolderIndex, IndexedFile } from './folder-index';
import type { Problem } from './problem';
import { resolveHref } from './resolve';

/** The blocks that render from a specification, and the argument naming it. */
const SPEC_ARG: Readonly<Record<string, 'spec' | 'src'>> = {
  openapi: 'src',
  swagger: 'src',
  'openapi-operation': 'spec',
  'openapi-webhook': 'spec',
  'openapi-schemas': 'spec',
};

export interface BlockSpec extends LocalSpec {
  /** How the block names it: the slug, or the `src` as written. */
  label: string;
  /** Whether it is one of the organization's specs (`quire openapi publish` sends it), rather than a file of the space. */
  managed: boolean;
}

/** The local specification a block of the file at `fromRootPath` renders from, or null. */
export function specOfBlock(index: FolderIndex, fromRootPath: string, name: string, args: Readonly<Record<string, string>>): BlockSpec | null {
  const specs = index.specs;
  const arg = SPEC_ARG[name];
  const named = arg ? args[arg] : undefined;
  if (!specs || !arg || !named) return null;
  const spaceId = index.get(fromRootPath)?.space.spaceId ?? index.spaceOf(fromRootPath)?.spaceId ?? null;
  if (arg === 'spec') {
    const found = specs.bySlug(spaceId, named);
    return found && { ...found, label: named, managed: true };
  }
  const r = resolveHref(index, fromRootPath, named);
  if (r.kind === 'external') {
    const found = specs.byUrl(spaceId, r.url);
    return found && { ...found, label: named, managed: true };
  }
  const file = r.kind === 'file' ? r.rootPath : r.kind === 'stable' ? r.rootPath : null;
  const found = file === null ? null : specs.read(file);
  return found && { ...found, label: named, managed: false };
}

/** What the block names that its specification lacks ("POST /pets", "schema Pet"), or null when it has it all. */
export function missingFromSpec(spec: Record<string, unknown>, name: string, args: Readonly<Record<string, string>>): string | null {
  const method = (args.method ?? '').toUpperCase();
  if (name === 'openapi-webhook') return findWebhook(spec, args.name ?? '', method) ? null : `webhook ${args.name ?? ''} (${method})`;
  if (name === 'openapi-schemas') {
    const have = schemaNames(spec);
    const lacking = (args.schemas ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '' && !have.has(s));
    return lacking.length === 0 ? null : `schema${lacking.length > 1 ? 's' : ''} ${lacking.join(', ')}`;
  }
  if (!args.path || !method) return null;
  return findOperation(spec, method, args.path) ? null : `${method} ${args.path}`;
}

/** One sentence each: what is wrong with the block's specification, for check and the preview alike. */
export function specFinding(
  block: BlockSpec,
  name: string,
  args: Readonly<Record<string, string>>,
): { code: Problem['code']; message: string; fix: string } | null {
  const where = `The OpenAPI specification ${block.label} (${block.file})`;
  if (!block.read.ok) {
    const line = block.read.line === null ? '' : `line ${block.read.line}: `;
    return {
      code: 'openapi-unreadable-spec',
      message: `${where} does not parse: ${line}${block.read.reason}.`,
      fix: 'Fix the file: GitBook cannot show the block from it either.',
    };
  }
  const missing = missingFromSpec(block.read.spec, name, args);
  if (missing === null) return null;
  return {
    code: 'openapi-missing-operation',
    message: `${where} has no ${missing}.`,
    fix: block.managed
      ? "Add it to the specification and publish it (`quire openapi publish`), or correct the block's arguments."
      : `Add it to ${block.file}, or correct the block's arguments.`,
  };
}

/** The warnings about the OpenAPI blocks of one markdown file. */
export function openapiProblems(index: FolderIndex, f: IndexedFile): Problem[] {
  const text = f.file.text;
  if (!index.specs || text === null || !/\{%\s*(?:openapi|swagger)/.test(text)) return [];
  const problems: Problem[] = [];
  for (const block of scanBlocks(text).blocks) {
    if (!SPEC_ARG[block.name]) continue;
    const spec = specOfBlock(index, f.rootPath, block.name, block.args);
    const finding = spec && specFinding(spec, block.name, block.args);
    if (finding) problems.push({ file: f.rootPath, line: block.startLine, severity: 'warning', ...finding });
  }
  return problems;
}
