/**
 * Reading an OpenAPI 3.x or Swagger 2.0 specification from its text (YAML or JSON, which is
 * YAML too): what `quire openapi publish` checks before sending a file, and what the preview and
 * `quire check` read operations from. A text that is not one is refused with the line it goes
 * wrong on and why, in the words a writer fixes it with.
 *
 * Checked: the YAML itself (syntax, a key given twice in one mapping), then what every tool needs
 * to read a specification at all — `openapi: 3.x` or `swagger: "2.0"`, `info` with a `title` and
 * a `version`, `paths` (3.1 may have `webhooks` or `components` instead), each path starting with
 * `/`, each path item and operation a mapping, and an operation's `responses` (3.1 may leave
 * them out). The rest (schemas, references) is GitBook's to judge: it keeps such a version and
 * reports what it could not process.
 *
 * Limits, checked before the text is parsed: 16 MiB, and mappings and lists nested at most 256
 * deep (the parser builds values by recursion; a real specification nests a few dozen levels).
 */
import * as yaml from 'yaml';
import type { CST, Node, Pair, YAMLMap } from 'yaml';
import { firstDuplicateKey } from '../content';

export const MAX_SPEC_BYTES = 16 * 1024 * 1024;
export const MAX_SPEC_DEPTH = 256;
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type SpecText =
  | { ok: true; spec: Record<string, unknown>; kind: 'openapi' | 'swagger'; version: string; format: 'json' | 'yaml' }
  | { ok: false; line: number | null; reason: string };

class Refusal {
  constructor(
    readonly line: number | null,
    readonly reason: string,
  ) {}
}

/** Reads and checks a specification's text. */
export function readSpecText(text: string): SpecText {
  try {
    return readChecked(text);
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, line: err.line, reason: err.reason };
    throw err;
  }
}

function readChecked(text: string): SpecText {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_SPEC_BYTES) throw new Refusal(null, `it is ${Math.ceil(bytes / 1024 / 1024)} MB, and Quire reads at most ${MAX_SPEC_BYTES / 1024 / 1024} MB`);
  if (text.trim() === '') throw new Refusal(1, 'the file is empty');

  const counter = new yaml.LineCounter();
  const lineOf = (offset: number | undefined): number | null => (offset === undefined ? null : counter.linePos(offset).line);
  checkDepth(text);
  const doc = yaml.parseDocument(text, { uniqueKeys: false, prettyErrors: true, lineCounter: counter });
  const error = doc.errors[0];
  if (error) {
    const reason = (error.message.split('\n')[0] ?? error.message).replace(/ at line \d+, column \d+:?$/, '');
    throw new Refusal(error.linePos?.[0].line ?? null, reason);
  }
  if (doc.contents !== null && !yaml.isMap(doc.contents))
    throw new Refusal(lineOf(doc.contents.range?.[0]) ?? 1, 'the file is not a mapping of keys (such as `openapi: 3.1.0`)');
  const top = (doc.contents ?? new yaml.YAMLMap()) as YAMLMap;
  const duplicate = firstDuplicateKey(top);
  if (duplicate !== null) throw new Refusal(lineOf(duplicate.offset), `the key ${duplicate.name} is given twice in the same mapping`);
  let spec: unknown;
  try {
    spec = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new Refusal(null, (err as Error).message);
  }
  const { kind, version } = checkStructure(top, lineOf);
  return { ok: true, spec: (spec ?? {}) as Record<string, unknown>, kind, version, format: text.trimStart().startsWith('{') ? 'json' : 'yaml' };
}

/** Mappings and lists nested deeper than MAX_SPEC_DEPTH, found on the syntax tree (built without recursion). */
function checkDepth(text: string): void {
  const { Parser, CST } = yaml;
  for (const token of new Parser().parse(text)) {
    if (token.type !== 'document' || !token.value) continue;
    const stack: { node: CST.Token; depth: number }[] = [{ node: token.value, depth: 1 }];
    for (let next = stack.pop(); next; next = stack.pop()) {
      if (!CST.isCollection(next.node)) continue;
      if (next.depth > MAX_SPEC_DEPTH) {
        const line = text.slice(0, next.node.offset).split('\n').length;
        throw new Refusal(line, `mappings and lists nest more than ${MAX_SPEC_DEPTH} levels deep, and Quire reads at most ${MAX_SPEC_DEPTH}`);
      }
      for (const item of next.node.items) if (item.value) stack.push({ node: item.value, depth: next.depth + 1 });
    }
  }
}

/** What the key `name` of `map` holds: its pair, or undefined. */
function pairOf(map: YAMLMap, name: string): Pair<Node, Node | null> | undefined {
  const { isScalar } = yaml;
  return map.items.find((p) => isScalar(p.key) && String(p.key.value) === name) as Pair<Node, Node | null> | undefined;
}

function checkStructure(top: YAMLMap, lineOf: (offset: number | undefined) => number | null): { kind: 'openapi' | 'swagger'; version: string } {
  const { isMap, isScalar } = yaml;
  const at = (node: Node | null | undefined): number | null => lineOf(node?.range?.[0]);
  const scalarText = (node: Node | null | undefined): string | null => (isScalar(node) ? String(node.source ?? node.value) : null);
  const openapi = pairOf(top, 'openapi');
  const swagger = pairOf(top, 'swagger');
  let kind: 'openapi' | 'swagger';
  let version: string;
  if (openapi) {
    version = scalarText(openapi.value) ?? '';
    if (!/^3\.\d+(?:\.\d+)?$/.test(version)) throw new Refusal(at(openapi.key), `openapi: "${version}" is not 3.x`);
    kind = 'openapi';
  } else if (swagger) {
    version = scalarText(swagger.value) ?? '';
    if (!/^2\.0$/.test(version)) throw new Refusal(at(swagger.key), `swagger: "${version}" is not 2.0`);
    kind = 'swagger';
  } else {
    throw new Refusal(1, 'neither `openapi: 3.x` nor `swagger: "2.0"` at the top');
  }

  const info = pairOf(top, 'info');
  if (!info) throw new Refusal(1, 'there is no info (with the title and version of the API)');
  if (!isMap(info.value)) throw new Refusal(at(info.key), 'info is not a mapping (it holds title and version)');
  for (const field of ['title', 'version']) {
    const held = pairOf(info.value, field);
    if (!held || scalarText(held.value) === null || scalarText(held.value) === '') throw new Refusal(at(info.key), `info has no ${field}`);
  }

  const is31 = kind === 'openapi' && !version.startsWith('3.0');
  const paths = pairOf(top, 'paths');
  if (!paths) {
    if (is31 && (pairOf(top, 'webhooks') || pairOf(top, 'components'))) return { kind, version };
    throw new Refusal(1, is31 ? 'there are no paths, webhooks or components' : 'there are no paths');
  }
  if (paths.value === null || (isScalar(paths.value) && paths.value.value === null)) return { kind, version };
  if (!isMap(paths.value)) throw new Refusal(at(paths.key), 'paths is not a mapping of paths to operations');
  for (const item of paths.value.items) {
    const path = scalarText(item.key as Node) ?? '';
    if (!path.startsWith('/')) throw new Refusal(at(item.key as Node), `the path ${path} does not start with /`);
    const value = item.value as Node | null;
    if (value === null || (isScalar(value) && value.value === null)) continue;
    if (!isMap(value)) throw new Refusal(at(item.key as Node), `the path ${path} does not hold a mapping of operations`);
    for (const method of HTTP_METHODS) {
      const op = pairOf(value, method);
      if (!op) continue;
      if (!isMap(op.value)) throw new Refusal(at(op.key), `${method.toUpperCase()} ${path} is not a mapping`);
      if (!is31 && !pairOf(op.value, 'responses')) throw new Refusal(at(op.key), `${method.toUpperCase()} ${path} has no responses`);
    }
  }
  return { kind, version };
}
