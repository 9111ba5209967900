import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { JsonSchemaObject } from '../protocol/wire.types.js';

/**
 * Outcome of {@link ArgumentValidator.validate}. The success value is one shared frozen object.
 * @publicApi
 */
export type ArgumentValidationResult = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * Options of {@link ArgumentValidator}.
 * @publicApi
 */
export interface ArgumentValidatorOptions {
  /** Names the schema's owner in start-up errors, e.g. `tool "get_weather" inputSchema`. */
  where?: string;
  /** Start of every failure message. Default `Invalid arguments`. */
  messagePrefix?: string;
  /** How the validated value itself is called when the error is at its root. Default `arguments`. */
  rootName?: string;
}

// One Ajv instance for every schema: compiled code and formats are shared, each schema compiles once.
// - strict:false so annotation keywords such as `x-mcp-header` are accepted;
// - allErrors:false because the first error is all a message reports and it stops early;
// - addUsedSchema:false so user schemas carrying the same `$id` do not collide in the registry;
// - no `loadSchema`: Ajv never fetches remote `$ref`s (the spec forbids auto-dereferencing network
//   URIs); an unresolvable `$ref` fails compilation, i.e. start-up.
let sharedAjv: Ajv2020 | undefined;

function ajv(): Ajv2020 {
  if (sharedAjv === undefined) {
    sharedAjv = new Ajv2020({ strict: false, allErrors: false, coerceTypes: false, addUsedSchema: false, logger: false });
    // The package's CJS default export is the plugin itself; `.default` is the same function.
    ajvFormats.default(sharedAjv);
  }
  return sharedAjv;
}

function compile(schema: unknown, where: string): ValidateFunction {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new Error(`Invalid JSON Schema for ${where}: a schema must be an object`);
  }
  try {
    return ajv().compile(schema as JsonSchemaObject);
  } catch (error) {
    throw new Error(`Invalid JSON Schema for ${where}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

/**
 * Throws an `Error` naming `where` when `schema` is not a compilable JSON Schema 2020-12 object
 * (meta-schema violations, unresolvable or remote `$ref`s, unsupported `$schema` dialects), so a
 * broken schema fails start-up rather than a call.
 * @publicApi
 */
export function assertValidSchema(schema: unknown, where: string): asserts schema is JsonSchemaObject {
  compile(schema, where);
}

/**
 * Throws an `Error` naming `where` unless `schema` has `type: "object"` at its root, as MCP requires
 * of a tool's `inputSchema`.
 * @publicApi
 */
export function assertObjectRootSchema(schema: unknown, where: string): asserts schema is JsonSchemaObject & { type: 'object' } {
  if (schema === null || typeof schema !== 'object' || (schema as JsonSchemaObject).type !== 'object') {
    throw new Error(`Invalid input schema for ${where}: the root must have "type": "object"`);
  }
}

const OK: ArgumentValidationResult = Object.freeze({ ok: true as const });

/**
 * Validates tool arguments against a JSON Schema compiled once at construction. On the hot path
 * `validate()` allocates nothing beyond Ajv itself when the value is valid; on failure the message
 * names the field, e.g. `Invalid arguments: "address.city" must be string`.
 * @publicApi
 */
export class ArgumentValidator {
  private readonly check: ValidateFunction;
  private readonly prefix: string;
  private readonly rootName: string;

  /** @throws Error naming `options.where` when the schema does not compile. */
  constructor(readonly schema: JsonSchemaObject, options: ArgumentValidatorOptions = {}) {
    this.check = compile(schema, options.where ?? 'schema');
    this.prefix = options.messagePrefix ?? 'Invalid arguments';
    this.rootName = options.rootName ?? 'arguments';
  }

  validate(args: unknown): ArgumentValidationResult {
    if (this.check(args)) return OK;
    return { ok: false, message: `${this.prefix}: ${describeErrors(this.check.errors ?? [], this.rootName)}` };
  }
}

/** Turns Ajv's errors (first failure, then its enclosing composite keywords) into one sentence. */
function describeErrors(errors: readonly ErrorObject[], rootName: string): string {
  if (errors.length === 0) return 'validation failed';
  // For anyOf/oneOf Ajv lists every branch's failure and then the anyOf error itself; the first
  // branch's failure alone would be misleading, so describe the alternatives.
  const last = errors[errors.length - 1]!;
  if (last.keyword === 'anyOf' || last.keyword === 'oneOf') return describeAlternatives(last, errors, rootName);
  return describeError(errors[0]!, rootName);
}

function describeAlternatives(error: ErrorObject, errors: readonly ErrorObject[], rootName: string): string {
  const branchErrors = errors.slice(0, -1);
  const at = error.instancePath;
  if (branchErrors.length > 0 && branchErrors.every((e) => e.keyword === 'required' && e.instancePath === at)) {
    const names = branchErrors.map((e) => `"${joinPath(at, String(e.params.missingProperty))}"`);
    return `missing required property: one of ${names.join(', ')}`;
  }
  if (error.keyword === 'oneOf' && error.params.passingSchemas != null) {
    return `${subject(at, rootName)} must match exactly one allowed schema, but matches several`;
  }
  const first = branchErrors[0];
  return first === undefined
    ? `${subject(at, rootName)} ${error.message ?? 'is invalid'}`
    : `${subject(at, rootName)} matches none of the allowed schemas (first: ${describeError(first, rootName)})`;
}

function describeError(error: ErrorObject, rootName: string): string {
  const at = error.instancePath;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `missing required property "${joinPath(at, String(params.missingProperty))}"`;
    case 'dependentRequired':
      return `missing required property "${joinPath(at, String(params.missingProperty))}" (required with "${joinPath(at, String(params.property))}")`;
    case 'additionalProperties':
      return `unexpected property "${joinPath(at, String(params.additionalProperty))}"`;
    case 'unevaluatedProperties':
      return `unexpected property "${joinPath(at, String(params.unevaluatedProperty))}"`;
    case 'enum':
      return `${subject(at, rootName)} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${subject(at, rootName)} must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return `${subject(at, rootName)} ${error.message ?? 'is invalid'}`;
  }
}

function subject(instancePath: string, rootName: string): string {
  return instancePath === '' ? rootName : `"${pointerToPath(instancePath)}"`;
}

function joinPath(instancePath: string, property: string): string {
  return instancePath === '' ? property : `${pointerToPath(instancePath)}.${property}`;
}

/** JSON Pointer `/address/lines/0` → `address.lines[0]`. */
function pointerToPath(pointer: string): string {
  let path = '';
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    path += /^\d+$/.test(segment) ? `[${segment}]` : path === '' ? segment : `.${segment}`;
  }
  return path;
}
