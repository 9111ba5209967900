import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import type { JsonSchemaObject } from '../protocol/wire.types.js';
import { MetaSchemaAjv } from './meta-schema-ajv.js';
import { propertyPath } from './schema-helpers.js';

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

// Two shared Ajv instances: compiled code and formats are shared, each schema compiles once per instance.
// - strict:false so annotation keywords such as `x-mcp-header` are accepted;
// - the fast one has allErrors:false (it stops at the first error, all a valid/invalid answer needs);
//   the thorough one, allErrors:true, runs only after a failure to name every bad argument;
// - addUsedSchema:false so user schemas carrying the same `$id` do not collide in the registry;
// - no `loadSchema`: Ajv never fetches remote `$ref`s (the spec forbids auto-dereferencing network
//   URIs); an unresolvable `$ref` fails compilation, i.e. start-up;
// - the meta-schema check runs precompiled code (MetaSchemaAjv): Ajv's own would compile it at start-up.
const sharedAjv = new Map<boolean, MetaSchemaAjv>();

function ajv(allErrors: boolean): MetaSchemaAjv {
  let instance = sharedAjv.get(allErrors);
  if (instance === undefined) {
    instance = new MetaSchemaAjv({ strict: false, allErrors, coerceTypes: false, addUsedSchema: false, logger: false });
    // The package's CJS default export is the plugin itself; `.default` is the same function.
    ajvFormats.default(instance);
    sharedAjv.set(allErrors, instance);
  }
  return instance;
}

function compile(schema: unknown, where: string, allErrors = false): ValidateFunction {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new Error(`Invalid JSON Schema for ${where}: a schema must be an object`);
  }
  try {
    return ajv(allErrors).compile(schema as JsonSchemaObject);
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
 * Throws an `Error` naming `where` when `schema` is not a JSON Schema 2020-12 object by the meta-schema.
 * Cheaper than {@link assertValidSchema} (no code is generated): for schemas a library converted, which
 * are never compiled here because the library validates with its own code.
 */
export function assertWellFormedSchema(schema: unknown, where: string): asserts schema is JsonSchemaObject {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) {
    throw new Error(`Invalid JSON Schema for ${where}: a schema must be an object`);
  }
  const instance = ajv(false);
  if (!instance.validateSchema(schema)) throw new Error(`Invalid JSON Schema for ${where}: ${instance.errorsText(instance.errors)}`);
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
 * names every bad field, e.g. `Invalid arguments: "address.city" must be string; missing required property "name"`.
 * @publicApi
 */
export class ArgumentValidator {
  private readonly check: ValidateFunction;
  /** The all-errors twin of `check`, compiled on the first failure: most schemas never need it. */
  private checkAll: ValidateFunction | undefined;
  private readonly where: string;
  private readonly prefix: string;
  private readonly rootName: string;

  /** @throws Error naming `options.where` when the schema does not compile. */
  constructor(readonly schema: JsonSchemaObject, options: ArgumentValidatorOptions = {}) {
    this.where = options.where ?? 'schema';
    this.check = compile(schema, this.where);
    this.prefix = options.messagePrefix ?? 'Invalid arguments';
    this.rootName = options.rootName ?? 'arguments';
  }

  validate(args: unknown): ArgumentValidationResult {
    if (this.check(args)) return OK;
    this.checkAll ??= compile(this.schema, this.where, true);
    this.checkAll(args);
    return { ok: false, message: `${this.prefix}: ${describeErrors(this.checkAll.errors ?? this.check.errors ?? [], this.rootName)}` };
  }
}

/**
 * Turns Ajv's errors into one sentence per bad value: the errors of an `anyOf`/`oneOf`'s branches
 * are described through it, and each property is named once (its first error).
 */
function describeErrors(errors: readonly ErrorObject[], rootName: string): string {
  if (errors.length === 0) return 'validation failed';
  const problems: { key: string; sentence: string }[] = [];
  const claimed = new Set<ErrorObject>();
  // Backwards, so that a composite error claims its branches' errors before they are met alone.
  for (let i = errors.length - 1; i >= 0; i--) {
    const error = errors[i]!;
    // An `if` error only sums up the `then`/`else` errors reported just before it.
    if (claimed.has(error) || error.keyword === 'if') continue;
    let sentence: string;
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf') {
      const branches = branchesOf(errors, i);
      for (const branch of branches) claimed.add(branch);
      sentence = describeAlternatives(error, branches, rootName);
    } else {
      sentence = describeError(error, rootName);
    }
    problems.unshift({ key: problemKey(error), sentence });
  }
  // In Ajv's order, each bad value once (its first error).
  const byKey = new Map<string, string>();
  for (const { key, sentence } of problems) if (!byKey.has(key)) byKey.set(key, sentence);
  return [...new Set(byKey.values())].join('; ');
}

/**
 * The errors of a failed `anyOf`/`oneOf` at `errors[index]`: Ajv reports them just before it, at or
 * below its instance path. The run stops at an error of a sibling keyword of the same schema
 * (errors inside a `$ref`'d branch carry the referenced schema's path and are kept).
 */
function branchesOf(errors: readonly ErrorObject[], index: number): ErrorObject[] {
  const composite = errors[index]!;
  const ownPath = `${composite.schemaPath}/`;
  const parentPath = `${composite.schemaPath.slice(0, composite.schemaPath.lastIndexOf('/'))}/`;
  let start = index;
  while (start > 0) {
    const previous = errors[start - 1]!;
    const below = previous.instancePath === composite.instancePath || previous.instancePath.startsWith(`${composite.instancePath}/`);
    const sibling = previous.schemaPath.startsWith(parentPath) && !previous.schemaPath.startsWith(ownPath);
    if (!below || sibling) break;
    start--;
  }
  return errors.slice(start, index);
}

/** Which value an error is about: a missing or unexpected property is its own value. */
function problemKey(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const property = params.missingProperty ?? params.additionalProperty ?? params.unevaluatedProperty;
  return property === undefined ? error.instancePath : `${error.instancePath}/${String(property)}`;
}

function describeAlternatives(error: ErrorObject, branchErrors: readonly ErrorObject[], rootName: string): string {
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
  return propertyPath(pointer.slice(1).split('/').map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~')));
}
