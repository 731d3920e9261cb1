/**
 * What an OpenAPI block shows of an operation, read from a specification (spec-text.ts): its
 * method and path, summary and description, parameters (the path item's and its own), request
 * body and responses, each with its media types and the shape of its schema (type, and the
 * properties of an object, one level deep). Local references (`$ref: '#/components/…'`) are
 * followed, at most MAX_REF_HOPS in a row (a reference that loops is shown by its name);
 * references to other files are named, not read. Swagger 2.0's body and form parameters are its
 * request body, `consumes` and `produces` its media types.
 */
import { HTTP_METHODS } from './spec-text';

type Obj = Record<string, unknown>;

export interface SchemaView {
  /** `string`, `integer (int64)`, `array of Pet`, `Pet`, `one of Cat, Dog`, … */
  type: string;
  /** Of an object: its properties, in order. */
  properties: { name: string; type: string; required: boolean; description: string | null }[];
}

export interface ParameterView {
  name: string;
  in: string;
  required: boolean;
  type: string | null;
  description: string | null;
  deprecated: boolean;
}

export interface ContentView {
  mediaType: string;
  schema: SchemaView | null;
}

export interface OperationView {
  method: string;
  path: string;
  operationId: string | null;
  summary: string | null;
  description: string | null;
  deprecated: boolean;
  parameters: ParameterView[];
  requestBody: { required: boolean; description: string | null; contents: ContentView[] } | null;
  responses: { status: string; description: string | null; contents: ContentView[] }[];
}

const MAX_REF_HOPS = 16;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : typeof v === 'number' ? String(v) : null);

/** The value a local reference (`#/components/schemas/Pet`) points at, or undefined. */
function pointer(spec: Obj, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  let at: unknown = spec;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObj(at) && !Array.isArray(at)) return undefined;
    at = (at as Obj)[key];
  }
  return at;
}

/** `value` with its references followed; `ref` is the last reference's name (for a schema's type). */
function deref(spec: Obj, value: unknown): { value: Obj | null; ref: string | null } {
  let current = value;
  let ref: string | null = null;
  for (let hops = 0; isObj(current) && typeof current.$ref === 'string'; hops++) {
    ref = current.$ref.slice(current.$ref.lastIndexOf('/') + 1);
    if (hops >= MAX_REF_HOPS) return { value: null, ref };
    const target = pointer(spec, current.$ref);
    if (target === undefined) return { value: null, ref: current.$ref.startsWith('#') ? ref : current.$ref };
    current = target;
  }
  return { value: isObj(current) ? current : null, ref };
}

/** A schema's type in words. */
function typeOf(spec: Obj, schema: unknown, depth = 0): string {
  const { value, ref } = deref(spec, schema);
  if (ref && (depth > 0 || !value)) return ref;
  if (!value) return ref ?? 'any';
  for (const key of ['oneOf', 'anyOf'] as const) {
    const list = value[key];
    if (Array.isArray(list) && depth < 3) return `one of ${list.map((s) => typeOf(spec, s, depth + 1)).join(', ')}`;
  }
  if (Array.isArray(value.allOf) && depth < 3 && value.type === undefined) return ref ?? value.allOf.map((s) => typeOf(spec, s, depth + 1)).join(' and ');
  const type = Array.isArray(value.type) ? value.type.filter((t) => t !== 'null').join(' or ') : text(value.type);
  if (type === 'array') return depth < 3 ? `array of ${typeOf(spec, value.items, depth + 1)}` : 'array';
  const format = text(value.format);
  const base = ref ?? type ?? (isObj(value.properties) ? 'object' : 'any');
  return format && !ref ? `${base} (${format})` : base;
}

/** The properties of an object schema (allOf members merged), one level deep. */
function schemaView(spec: Obj, schema: unknown): SchemaView {
  const props: SchemaView['properties'] = [];
  const seen = new Set<string>();
  const collect = (s: unknown, depth: number) => {
    const { value } = deref(spec, s);
    if (!value || depth > 4) return;
    if (Array.isArray(value.allOf)) for (const member of value.allOf) collect(member, depth + 1);
    const required = new Set(Array.isArray(value.required) ? value.required.map(String) : []);
    if (!isObj(value.properties)) return;
    for (const [name, p] of Object.entries(value.properties)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const { value: resolved } = deref(spec, p);
      props.push({ name, type: typeOf(spec, p, 1), required: required.has(name), description: text(resolved?.description) });
    }
  };
  collect(schema, 0);
  return { type: typeOf(spec, schema), properties: props };
}

function contents(spec: Obj, content: unknown): ContentView[] {
  if (!isObj(content)) return [];
  return Object.entries(content).map(([mediaType, media]) => {
    const schema = isObj(media) ? media.schema : undefined;
    return { mediaType, schema: schema === undefined ? null : schemaView(spec, schema) };
  });
}

function parameterView(spec: Obj, raw: unknown): ParameterView | null {
  const { value } = deref(spec, raw);
  if (!value || text(value.name) === null) return null;
  const schema = value.schema ?? (value.type !== undefined ? value : undefined);
  return {
    name: String(value.name),
    in: text(value.in) ?? 'query',
    required: value.required === true || value.in === 'path',
    type: schema === undefined ? null : typeOf(spec, schema),
    description: text(value.description),
    deprecated: value.deprecated === true,
  };
}

/** The operation object at `method` `path`, or null when the specification has none. */
export function findOperation(spec: Obj, method: string, path: string): Obj | null {
  const paths = spec.paths;
  if (!isObj(paths) || !Object.hasOwn(paths, path)) return null;
  const item = deref(spec, paths[path]).value;
  const op = item?.[method.toLowerCase()];
  return HTTP_METHODS.includes(method.toLowerCase() as (typeof HTTP_METHODS)[number]) && isObj(op) ? op : null;
}

/** The webhook `name` (OpenAPI 3.1's `webhooks`) answering `method`, or null. */
export function findWebhook(spec: Obj, name: string, method: string): Obj | null {
  const hooks = spec.webhooks ?? spec['x-webhooks'];
  const item = isObj(hooks) ? deref(spec, hooks[name]).value : null;
  const op = item?.[method.toLowerCase()];
  return isObj(op) ? op : null;
}

/** The names of a specification's schemas (`components.schemas`, Swagger's `definitions`). */
export function schemaNames(spec: Obj): Set<string> {
  const components = isObj(spec.components) ? spec.components.schemas : undefined;
  const found = isObj(components) ? components : isObj(spec.definitions) ? spec.definitions : {};
  return new Set(Object.keys(found));
}

/** Everything the block shows of the operation at `method` `path` (null when the specification has none). */
export function describeOperation(spec: Obj, method: string, path: string): OperationView | null {
  const op = findOperation(spec, method, path);
  if (!op) return null;
  const item = deref(spec, (spec.paths as Obj)[path]).value ?? {};
  const swagger = spec.swagger === '2.0';
  const byKey = new Map<string, { raw: unknown; view: ParameterView }>();
  for (const raw of [...(Array.isArray(item.parameters) ? item.parameters : []), ...(Array.isArray(op.parameters) ? op.parameters : [])]) {
    const view = parameterView(spec, raw);
    if (view) byKey.set(`${view.in} ${view.name}`, { raw, view });
  }
  const all = [...byKey.values()];
  const consumes = (Array.isArray(op.consumes) ? op.consumes : Array.isArray(spec.consumes) ? spec.consumes : ['application/json']).map(String);
  const produces = (Array.isArray(op.produces) ? op.produces : Array.isArray(spec.produces) ? spec.produces : ['application/json']).map(String);

  let requestBody: OperationView['requestBody'] = null;
  if (swagger) {
    const body = all.find((p) => p.view.in === 'body');
    const form = all.filter((p) => p.view.in === 'formData');
    if (body) {
      const schema = deref(spec, body.raw).value?.schema;
      requestBody = {
        required: body.view.required,
        description: body.view.description,
        contents: consumes.map((mediaType) => ({ mediaType, schema: schema === undefined ? null : schemaView(spec, schema) })),
      };
    } else if (form.length > 0) {
      const properties = form.map((p) => ({ name: p.view.name, type: p.view.type ?? 'any', required: p.view.required, description: p.view.description }));
      const mediaType = consumes.find((c) => /form/.test(c)) ?? 'application/x-www-form-urlencoded';
      requestBody = { required: form.some((p) => p.view.required), description: null, contents: [{ mediaType, schema: { type: 'object', properties } }] };
    }
  } else {
    const body = deref(spec, op.requestBody).value;
    if (body) requestBody = { required: body.required === true, description: text(body.description), contents: contents(spec, body.content) };
  }

  const responses = Object.entries(isObj(op.responses) ? op.responses : {}).map(([status, raw]) => {
    const r = deref(spec, raw).value ?? {};
    const shown = swagger
      ? r.schema === undefined
        ? []
        : produces.map((mediaType) => ({ mediaType, schema: schemaView(spec, r.schema) }))
      : contents(spec, r.content);
    return { status, description: text(r.description), contents: shown };
  });

  return {
    method: method.toUpperCase(),
    path,
    operationId: text(op.operationId),
    summary: text(op.summary),
    description: text(op.description),
    deprecated: op.deprecated === true,
    parameters: all.map((p) => p.view).filter((p) => !swagger || (p.in !== 'body' && p.in !== 'formData')),
    requestBody,
    responses,
  };
}
