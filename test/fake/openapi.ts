/**
 * Loads the official OpenAPI document once per process, normalises its schemas for Ajv and
 * builds the route table (method + path template → operation) the fake dispatches on.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export const SPEC_SCHEMA_ID = 'gitbook-openapi';
const DEFS_PREFIX = `${SPEC_SCHEMA_ID}#/$defs/`;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonSchema = { [key: string]: Json };

export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: JsonSchema;
}

export interface OperationResponse {
  /** Undefined when the response declares no JSON body (e.g. 204). */
  schema: JsonSchema | undefined;
}

export interface Operation {
  operationId: string;
  method: string;
  /** Template without the `/v1` server base, e.g. `/spaces/{spaceId}`. */
  template: string;
  parameters: OperationParameter[];
  requestBody: { required: boolean; schema: JsonSchema } | undefined;
  responses: Map<number, OperationResponse>;
}

export interface LoadedSpec {
  /** Normalised component schemas, registered with Ajv under `SPEC_SCHEMA_ID` (built on first use). */
  defsDocument(): JsonSchema;
  operations: Map<string, Operation>;
  router: RouteTrie;
  /** Milliseconds spent reading, normalising and indexing the document. */
  loadMs: number;
}

let cached: LoadedSpec | undefined;

export function loadSpec(): LoadedSpec {
  if (cached) return cached;
  const started = performance.now();
  const require = createRequire(import.meta.url);
  const specPath = require.resolve('@gitbook/api/spec/openapi.json');
  const raw = JSON.parse(readFileSync(specPath, 'utf8')) as {
    paths: Record<string, Record<string, unknown>>;
    components: {
      schemas: Record<string, Json>;
      parameters: Record<string, unknown>;
      responses: Record<string, unknown>;
    };
  };

  let defsDocument: JsonSchema | undefined;
  const buildDefsDocument = (): JsonSchema => {
    const defs: Record<string, Json> = {};
    for (const [name, schema] of Object.entries(raw.components.schemas)) defs[name] = normaliseSchema(schema);
    defs[DOCUMENT_WITHIN_COMPOSITION] = documentWithinComposition(defs.Document);
    pageEditedAttributesAsAnyOf(defs.RevisionSemanticChangePageEdited);
    return { $id: SPEC_SCHEMA_ID, $defs: defs };
  };

  const operations = new Map<string, Operation>();
  const router = new RouteTrie();
  for (const [template, item] of Object.entries(raw.paths)) {
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method] as RawOperation | undefined;
      if (!op) continue;
      const operation = buildOperation(raw.components, template, method.toUpperCase(), op, item.parameters);
      operations.set(operation.operationId, operation);
      router.add(operation);
    }
  }
  cached = { defsDocument: () => (defsDocument ??= buildDefsDocument()), operations, router, loadMs: performance.now() - started };
  return cached;
}

// ---------------------------------------------------------------------------------------------
// Normalisation: the single place where the spec's quirks are adapted for a JSON Schema 2020-12
// validator. Each rule is narrow and explained; nothing else about the schemas is changed.
// ---------------------------------------------------------------------------------------------

const DOCUMENT_WITHIN_COMPOSITION = 'DocumentWithinComposition';

/** Keywords whose values are maps of sub-schemas (keys are property names, never keywords). */
const SCHEMA_MAP_KEYWORDS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
const SCHEMA_KEYWORDS = new Set([
  'items',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
]);
const SCHEMA_LIST_KEYWORDS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);

export function normaliseSchema(schema: Json): Json {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return schema;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(schema)) {
    // 1. `discriminator` is an OpenAPI annotation; the oneOf it decorates already validates, and
    //    Ajv's own discriminator support needs per-branch consts the spec does not always give.
    // 2. `example` and `x-*` vendor extensions are annotations unknown to JSON Schema 2020-12;
    //    Ajv's strict mode (kept on, to catch anything else unexpected) rejects them.
    if (key === 'discriminator' || key === 'example' || key.startsWith('x-')) continue;
    if (key === '$ref' && typeof value === 'string') {
      // 3. Component refs point into the OpenAPI document; the schemas live in a standalone
      //    `$defs` document for Ajv, so `#/components/schemas/X` becomes `<id>#/$defs/X`.
      out[key] = value.replace('#/components/schemas/', DEFS_PREFIX);
    } else if (SCHEMA_MAP_KEYWORDS.has(key) && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normaliseSchema(v)]));
    } else if (SCHEMA_KEYWORDS.has(key)) {
      out[key] = normaliseSchema(value);
    } else if (key === 'allOf' && Array.isArray(value)) {
      // 5. Inline members of an allOf are evaluated before referenced ones. Conjunction order
      //    does not change what validates, but the inline member usually holds the `type`/`kind`
      //    enum that tells oneOf branches apart, so wrong branches of big unions (Revision,
      //    RevisionPage) fail on that enum instead of first validating a whole page tree.
      const members = value.map((item) => (isDocumentRef(item) ? { $ref: DEFS_PREFIX + DOCUMENT_WITHIN_COMPOSITION } : normaliseSchema(item)));
      out[key] = [...members.filter((m) => !isRef(m)), ...members.filter(isRef)];
    } else if (SCHEMA_LIST_KEYWORDS.has(key) && Array.isArray(value)) {
      out[key] = value.map(normaliseSchema);
    } else {
      out[key] = value; // enum/const/default/required/... are data, not schemas: kept verbatim
    }
  }
  return out;
}

/**
 * 4. `Document` is `oneOf [Markdown {markdown}, JSON {document}, Empty {additionalProperties:false}]`.
 *    Used alone (a request body's `document`) the Empty branch means `{}`. But RevisionPageDocument
 *    mixes Document into a page via `allOf`, where `additionalProperties: false` cannot see the
 *    page's own properties: a real page without content (`id`, `title`, ... and no `markdown`)
 *    then matches no branch, so every page of a revision would be rejected (checked in
 *    test/fake.test.ts). Inside `allOf` only, the Empty branch is restated as what it means
 *    there: "carries neither `markdown` nor `document`". Standalone uses keep the original.
 */
function documentWithinComposition(document: Json | undefined): Json {
  if (!isObject(document) || !Array.isArray(document.oneOf) || document.oneOf.length !== 3) {
    throw new Error("The spec's Document schema changed shape; revisit the normalisation in test/fake/openapi.ts");
  }
  const [markdown, json] = document.oneOf;
  const empty = { type: 'object', title: 'Empty', not: { anyOf: [{ required: ['markdown'] }, { required: ['document'] }] } };
  return { oneOf: [markdown ?? null, json ?? null, empty] };
}

/**
 * 6. A `page_edited` semantic change has `attributes: oneOf [Document | Group | Link attributes]`,
 *    three open objects of optional properties whose shared keys have the same types: any
 *    attributes object matches two or three branches, so oneOf can never pass and every
 *    `page_edited` change would be rejected. For that one property, oneOf becomes anyOf
 *    (which is what the union means); every other oneOf in the spec keeps its exclusivity.
 */
function pageEditedAttributesAsAnyOf(schema: Json | undefined): void {
  const attributes = isObject(schema) && isObject(schema.properties) ? schema.properties.attributes : undefined;
  if (!isObject(attributes) || !Array.isArray(attributes.oneOf)) {
    throw new Error("The spec's RevisionSemanticChangePageEdited changed shape; revisit the normalisation in test/fake/openapi.ts");
  }
  attributes.anyOf = attributes.oneOf;
  delete attributes.oneOf;
}

function isDocumentRef(value: Json): boolean {
  return isObject(value) && value.$ref === '#/components/schemas/Document';
}

function isRef(value: Json): boolean {
  return isObject(value) && typeof value.$ref === 'string';
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

interface RawOperation {
  operationId: string;
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, unknown>;
}

function buildOperation(
  components: { parameters: Record<string, unknown>; responses: Record<string, unknown> },
  template: string,
  method: string,
  op: RawOperation,
  pathLevelParameters: unknown,
): Operation {
  const resolve = <T>(value: unknown, section: Record<string, unknown>, prefix: string): T => {
    let current = value as { $ref?: string };
    for (let hops = 0; current && typeof current.$ref === 'string' && current.$ref.startsWith(prefix); hops++) {
      if (hops > 10) throw new Error(`Reference loop at ${current.$ref}`);
      const { $ref, ...rest } = current;
      current = { ...(section[$ref.slice(prefix.length)] as object), ...rest };
    }
    return current as T;
  };
  const rawParams = [...((pathLevelParameters as unknown[]) ?? []), ...(op.parameters ?? [])];
  const parameters = rawParams.map((p) => {
    const param = resolve<{ name: string; in: OperationParameter['in']; required?: boolean; schema?: Json }>(
      p,
      components.parameters,
      '#/components/parameters/',
    );
    return {
      name: param.name,
      in: param.in,
      required: param.in === 'path' || param.required === true,
      schema: normaliseSchema(param.schema ?? {}) as JsonSchema,
    };
  });

  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const requestBody = bodySchema ? { required: op.requestBody?.required === true, schema: normaliseSchema(bodySchema) as JsonSchema } : undefined;

  const responses = new Map<number, OperationResponse>();
  for (const [status, rawResponse] of Object.entries(op.responses ?? {})) {
    const response = resolve<{ content?: Record<string, { schema?: Json }> }>(rawResponse, components.responses, '#/components/responses/');
    const schema = response.content?.['application/json']?.schema;
    responses.set(Number(status), { schema: schema ? (normaliseSchema(schema) as JsonSchema) : undefined });
  }
  return { operationId: op.operationId, method, template, parameters, requestBody, responses };
}

// ---------------------------------------------------------------------------------------------
// Routing: a trie over path segments; static segments win over `{param}` segments.
// ---------------------------------------------------------------------------------------------

interface TrieNode {
  statics: Map<string, TrieNode>;
  param: { name: string; node: TrieNode } | undefined;
  operations: Map<string, Operation>;
}

export type RouteMatch =
  | { kind: 'found'; operation: Operation; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

export class RouteTrie {
  private readonly root: TrieNode = newNode();

  add(operation: Operation): void {
    let node = this.root;
    for (const segment of splitPath(operation.template)) {
      const param = /^\{(.+)\}$/.exec(segment);
      if (param) {
        const name = param[1] ?? '';
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    node.operations.set(operation.method, operation);
  }

  /** `path` is relative to the `/v1` base and still percent-encoded. */
  match(method: string, path: string): RouteMatch {
    const segments = splitPath(path);
    const found = this.walk(this.root, segments, 0, {});
    if (!found) return { kind: 'not-found' };
    const operation = found.node.operations.get(method);
    if (!operation) return { kind: 'method-not-allowed', allowed: [...found.node.operations.keys()] };
    return { kind: 'found', operation, params: found.params };
  }

  private walk(
    node: TrieNode,
    segments: string[],
    index: number,
    params: Record<string, string>,
  ): { node: TrieNode; params: Record<string, string> } | undefined {
    if (index === segments.length) return node.operations.size > 0 ? { node, params } : undefined;
    const segment = segments[index] ?? '';
    const staticChild = node.statics.get(segment);
    if (staticChild) {
      const found = this.walk(staticChild, segments, index + 1, params);
      if (found) return found;
    }
    if (node.param && segment !== '') {
      let value: string;
      try {
        value = decodeURIComponent(segment);
      } catch {
        return undefined;
      }
      return this.walk(node.param.node, segments, index + 1, { ...params, [node.param.name]: value });
    }
    return undefined;
  }
}

function newNode(): TrieNode {
  return { statics: new Map(), param: undefined, operations: new Map() };
}

function splitPath(path: string): string[] {
  const trimmed = path.replace(/^\/+/, '').replace(/\/+$/, '');
  return trimmed === '' ? [] : trimmed.split('/');
}
