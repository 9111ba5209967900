import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/**
 * Validates what the server sends against the 2026-07-28 JSON Schema, the spec's own data file kept in
 * `test/spec/` (see the README there for its origin).
 */
export const SCHEMA_URL = new URL('../spec/2026-07-28/schema.json', import.meta.url);

type FormatsPlugin = typeof addFormatsModule.default;
export const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

const SCHEMA_ID = 'https://modelcontextprotocol.io/schema/2026-07-28/schema.json';

interface SchemaFile {
  $defs: Record<string, Record<string, unknown>>;
}

/** The revisions whose schema the tests validate against: 2026-07-28 (modern) and 2025-11-25 (legacy sessions). */
export type SchemaRevision = '2026-07-28' | '2025-11-25';

interface LoadedSchema {
  ajv: Ajv2020;
  defs: SchemaFile['$defs'];
  id: string;
  compiled: Map<string, ValidateFunction>;
}

const loaded = new Map<SchemaRevision, LoadedSchema>();

function load(revision: SchemaRevision): LoadedSchema {
  let schema = loaded.get(revision);
  if (!schema) {
    const file = JSON.parse(readFileSync(new URL(`../spec/${revision}/schema.json`, import.meta.url), 'utf8')) as SchemaFile & Record<string, unknown>;
    const id = revision === '2026-07-28' ? SCHEMA_ID : `https://modelcontextprotocol.io/schema/${revision}/schema.json`;
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(ajv);
    ajv.addSchema({ ...file, $id: id });
    schema = { ajv, defs: file.$defs, id, compiled: new Map() };
    loaded.set(revision, schema);
  }
  return schema;
}

function validatorFor(def: string, revision: SchemaRevision = '2026-07-28'): ValidateFunction {
  const { ajv, defs, id, compiled } = load(revision);
  if (!(def in defs)) throw new Error(`${revision}/schema.json has no $defs/${def}`);
  let validate = compiled.get(def);
  if (!validate) {
    validate = ajv.getSchema(`${id}#/$defs/${def}`);
    if (!validate) throw new Error(`could not compile $defs/${def}`);
    compiled.set(def, validate);
  }
  return validate;
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`).join('; ');
}

/** Throws (failing the test) unless `value` validates against `$defs/<def>` of the revision (default 2026-07-28). */
export function assertMatchesDef(value: unknown, def: string, revision: SchemaRevision = '2026-07-28'): void {
  const validate = validatorFor(def, revision);
  if (!validate(value)) {
    throw new Error(`Not a valid ${def} per ${revision}/schema.json: ${describe(validate.errors)}\n${JSON.stringify(value)}`);
  }
}

/**
 * A message the server sent to a 2025 session, against the 2025-11-25 schema; with `method`, a result
 * against that method's result def. No 2026-only keys may appear (the schema tolerates extra keys):
 * no `resultType`, `ttlMs`, `cacheScope`, and no `io.modelcontextprotocol/` key in any `_meta`. (The
 * same prefix names extensions in `capabilities.extensions`, which 2025 sessions negotiate too.)
 */
export function assertLegacyServerMessage(message: unknown, method?: string): void {
  assertMatchesDef(message, 'JSONRPCMessage', '2025-11-25');
  const text = JSON.stringify(message);
  for (const modern of ['"resultType"', '"ttlMs"', '"cacheScope"']) {
    if (text.includes(modern)) throw new Error(`a 2026-only key (${modern}) on the 2025 wire: ${text}`);
  }
  const reserved = metaKeys(message).filter((key) => key.startsWith('io.modelcontextprotocol/'));
  if (reserved.length > 0) throw new Error(`a 2026-only _meta key (${reserved.join(', ')}) on the 2025 wire: ${text}`);
  const object = message as { result?: unknown; method?: string };
  if ('result' in object && method && LEGACY_RESULT_DEF_BY_METHOD[method]) assertMatchesDef(object.result, LEGACY_RESULT_DEF_BY_METHOD[method], '2025-11-25');
  if (object.method !== undefined) assertMatchesDef(message, 'id' in object ? 'ServerRequest' : 'ServerNotification', '2025-11-25');
}

/** The keys of every `_meta` object anywhere in `value`. */
function metaKeys(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(metaKeys);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) => [
    ...(key === '_meta' && typeof inner === 'object' && inner !== null ? Object.keys(inner) : []),
    ...metaKeys(inner),
  ]);
}

/** ajv's error text when `value` does not validate against `$defs/<def>`, else null. */
export function defErrors(value: unknown, def: string): string | null {
  const validate = validatorFor(def);
  return validate(value) ? null : describe(validate.errors);
}

/** True when `value` validates against `$defs/<def>`. */
export function matchesDef(value: unknown, def: string): boolean {
  return validatorFor(def)(value) as boolean;
}

/** The result def of each method this server answers. */
export const RESULT_DEF_BY_METHOD: Record<string, string> = {
  'server/discover': 'DiscoverResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'completion/complete': 'CompleteResult',
  // The tasks extension's results (GetTaskResult, the empty acks) are not in schema.json: the
  // envelope and the common Result are checked here; test/tasks.e2e-spec.ts checks their fields.
  'tasks/get': 'Result',
  'tasks/update': 'Result',
  'tasks/cancel': 'Result',
};

/** The 2025-11-25 def of each result a 2025 session gets: the same names, with initialize and ping instead of discover. */
const { 'server/discover': _discover, ...SHARED_RESULT_DEFS } = RESULT_DEF_BY_METHOD;
const LEGACY_RESULT_DEF_BY_METHOD: Record<string, string> = { ...SHARED_RESULT_DEFS, initialize: 'InitializeResult', ping: 'EmptyResult' };

/**
 * The defs an error code must satisfy. Some schema defs describe the error object (`ParseError`,
 * `InvalidParamsError`, …), others a whole response (`HeaderMismatchError`, …).
 */
const ERROR_DEF_BY_CODE: Record<number, { def: string; level: 'error' | 'response' }> = {
  [-32700]: { def: 'ParseError', level: 'error' },
  [-32600]: { def: 'InvalidRequestError', level: 'error' },
  [-32601]: { def: 'MethodNotFoundError', level: 'error' },
  [-32602]: { def: 'InvalidParamsError', level: 'error' },
  [-32603]: { def: 'InternalError', level: 'error' },
  [-32020]: { def: 'HeaderMismatchError', level: 'response' },
  [-32021]: { def: 'MissingRequiredClientCapabilityError', level: 'response' },
  [-32022]: { def: 'UnsupportedProtocolVersionError', level: 'response' },
};

/**
 * A JSON-RPC result response: the envelope against `JSONRPCResultResponse`, the result against the
 * named def (`DiscoverResult`, `ListToolsResult`, `CallToolResult`, `InputRequiredResult`, …).
 */
export function assertResultResponse(message: unknown, resultDef: string): asserts message is { jsonrpc: '2.0'; id: string | number; result: Record<string, any> } {
  assertMatchesDef(message, 'JSONRPCResultResponse');
  assertMatchesDef(message, 'JSONRPCMessage');
  const result = (message as { result: unknown }).result;
  assertMatchesDef(result, resultDef);
  assertMatchesDef(result, 'ServerResult');
}

/** A JSON-RPC error response: `JSONRPCErrorResponse`, and the code's own def when the schema has one. */
export function assertErrorResponse(message: unknown, expectedCode?: number): asserts message is { jsonrpc: '2.0'; id?: string | number; error: { code: number; message: string; data?: any } } {
  assertMatchesDef(message, 'JSONRPCErrorResponse');
  assertMatchesDef(message, 'JSONRPCMessage');
  const error = (message as { error: { code: number } }).error;
  if (expectedCode !== undefined && error.code !== expectedCode) {
    throw new Error(`expected error code ${expectedCode}, got ${error.code}: ${JSON.stringify(message)}`);
  }
  const known = ERROR_DEF_BY_CODE[error.code];
  if (known) assertMatchesDef(known.level === 'error' ? error : message, known.def);
}

/** A notification from the server: `ServerNotification` (and `ProgressNotification` for progress). */
export function assertServerNotification(message: unknown): void {
  assertMatchesDef(message, 'JSONRPCNotification');
  assertMatchesDef(message, 'ServerNotification');
  if ((message as { method?: unknown }).method === 'notifications/progress') assertMatchesDef(message, 'ProgressNotification');
}

/**
 * Any message the server sent: dispatches on its shape. `resultDef` names the result def to check
 * for result responses (defaults from `method` when given).
 */
export function assertServerMessage(message: unknown, options: { resultDef?: string; method?: string } = {}): void {
  if (typeof message !== 'object' || message === null) throw new Error(`not a JSON-RPC message: ${JSON.stringify(message)}`);
  if ('error' in message) return assertErrorResponse(message);
  if ('result' in message) {
    const result = (message as { result: { resultType?: unknown } }).result;
    const def =
      result?.resultType === 'input_required'
        ? 'InputRequiredResult'
        : result?.resultType === 'task'
          ? 'Result' // CreateTaskResult (tasks extension) is not in schema.json: envelope only
          : options.resultDef ?? (options.method ? RESULT_DEF_BY_METHOD[options.method] : undefined) ?? 'Result';
    return assertResultResponse(message, def);
  }
  if ('method' in message && !('id' in message)) return assertServerNotification(message);
  throw new Error(`the server must not send requests or other messages: ${JSON.stringify(message)}`);
}
