/**
 * Request and response validation against the normalised OpenAPI schemas. Validators are
 * compiled lazily per operation on first use and cached in memory and on disk
 * (validator-cache.ts), so a fake starts instantly and only pays for the operations a test
 * actually exercises, once per machine rather than once per test process.
 */
import { createHash } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import { _, type ErrorObject, type ValidateFunction } from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import addFormats from 'ajv-formats';
import { loadSpec, SPEC_SCHEMA_ID, type JsonSchema, type Operation, type OperationParameter } from './openapi';
import { loadCachedValidator, storeCachedValidator } from './validator-cache';

type Ajv = InstanceType<typeof Ajv2020>;

function createAjv(options: { coerce: boolean }): Ajv {
  const ajv = new Ajv2020({
    strict: true,
    // The spec routinely omits `type: object` next to `properties` (strictTypes) and requires
    // keys it does not declare (layout `description`: strictRequired); neither changes results.
    strictTypes: false,
    strictRequired: false,
    strictTuples: false,
    allErrors: false,
    validateSchema: false, // the spec document is trusted; meta-validating 1 MB of schemas is slow
    discriminator: false,
    coerceTypes: options.coerce ? 'array' : false,
    useDefaults: options.coerce,
    // Keep generated source so validators can be cached on disk (validator-cache.ts).
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  // GitBook-specific string formats with no published grammar: any string is accepted.
  ajv.addFormat('emoji', true);
  ajv.addFormat('icon', true);
  ajv.addSchema(loadSpec().defsDocument());
  return ajv;
}

let bodyAjv: Ajv | undefined;
let paramAjv: Ajv | undefined;
const cache = new Map<string, ValidateFunction>();

function compiled(key: string, kind: 'body' | 'params', schema: () => JsonSchema): ValidateFunction {
  let validate = cache.get(key);
  if (!validate) {
    validate = loadCachedValidator(key);
    if (!validate) {
      const ajv = kind === 'body' ? (bodyAjv ??= createAjv({ coerce: false })) : (paramAjv ??= createAjv({ coerce: true }));
      validate = ajv.compile(schema());
      storeCachedValidator(key, standaloneCode(ajv, validate));
    }
    cache.set(key, validate);
  }
  return validate;
}

export type Outcome = { ok: true } | { ok: false; message: string };

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'invalid';
  return errors
    .slice(0, 3)
    .map(
      (e) =>
        `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}${e.params && 'allowedValues' in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ''}`,
    )
    .join('; ');
}

/**
 * Validates and coerces (strings → numbers/booleans/arrays, defaults filled in) the parameters
 * of one location. Mutates `values` in place so handlers receive typed, defaulted values.
 */
export function validateParameters(operation: Operation, location: 'path' | 'query' | 'header', values: Record<string, unknown>): Outcome {
  const declared = operation.parameters.filter((p) => p.in === location);
  if (declared.length === 0 && Object.keys(values).length === 0) return { ok: true };
  const validate = compiled(`${operation.operationId}:${location}`, 'params', () => parametersSchema(declared));
  if (validate(values)) return { ok: true };
  return { ok: false, message: `${location} parameters: ${describeErrors(validate.errors)}` };
}

function parametersSchema(parameters: OperationParameter[]): JsonSchema {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((p) => [p.in === 'header' ? p.name.toLowerCase() : p.name, p.schema])),
    required: parameters.filter((p) => p.required).map((p) => (p.in === 'header' ? p.name.toLowerCase() : p.name)),
  };
}

export function validateRequestBody(operation: Operation, body: unknown): Outcome {
  const declared = operation.requestBody;
  if (!declared) return { ok: true };
  if (body === undefined) {
    return declared.required ? { ok: false, message: 'a JSON request body is required' } : { ok: true };
  }
  const validate = compiled(`${operation.operationId}:body`, 'body', () => declared.schema);
  if (validate(body)) return { ok: true };
  return { ok: false, message: `request body: ${describeErrors(validate.errors)}` };
}

/** The spec's generic error body; used for error statuses an operation does not declare. */
const ERROR_SCHEMA: JsonSchema = { $ref: `${SPEC_SCHEMA_ID}#/$defs/Error` };

export function validateResponse(operation: Operation, status: number, body: unknown): Outcome {
  const declared = operation.responses.get(status);
  if (!declared) {
    if (status < 400) {
      return { ok: false, message: `status ${status} is not declared for ${operation.operationId} (declared: ${[...operation.responses.keys()].join(', ')})` };
    }
    const validate = compiled('error-body', 'body', () => ERROR_SCHEMA);
    if (!validate(body)) return { ok: false, message: `error body for ${status}: ${describeErrors(validate.errors)}` };
    const code = (body as { error: { code: unknown } }).error.code;
    if (code !== status) return { ok: false, message: `error.code ${String(code)} differs from the HTTP status ${status}` };
    return { ok: true };
  }
  if (!declared.schema) {
    return body === undefined ? { ok: true } : { ok: false, message: `status ${status} of ${operation.operationId} declares no body but one was sent` };
  }
  if (body === undefined) return { ok: false, message: `status ${status} of ${operation.operationId} requires a JSON body` };
  const schema = declared.schema;
  const validate = compiled(`${operation.operationId}:response:${status}`, 'body', () => schema);
  if (validate(body)) return { ok: true };
  return { ok: false, message: `response ${status} of ${operation.operationId}: ${describeErrors(validate.errors)}` };
}

/** Validates any value against a named component schema (used by tests and diagnostics). */
export function validateComponent(name: string, value: unknown): Outcome {
  const validate = compiled(`component:${name}`, 'body', () => ({ $ref: `${SPEC_SCHEMA_ID}#/$defs/${name}` }));
  if (validate(value)) return { ok: true };
  return { ok: false, message: `${name}: ${describeErrors(validate.errors)}` };
}

/** Compiles an ad-hoc schema (which may reference the spec's `$defs`); cached by its content. */
export function compileRawComponent(name: string, rawSchema: JsonSchema): ValidateFunction {
  const digest = createHash('sha1').update(JSON.stringify(rawSchema)).digest('hex').slice(0, 12);
  return compiled(`raw:${name}:${digest}`, 'body', () => rawSchema);
}
