import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { MetaSchemaAjv } from '../schema/meta-schema-ajv.js';
import type { ElicitAction, ElicitContentValue, ElicitRequestFormParams, ElicitResponse } from '../protocol/wire.types.js';
import type { ElicitationRequestedSchema } from './elicitation-schema.types.js';
import { isPlainObject } from '../protocol/json-value.js';

/** Outcome of {@link validateElicitResponse}. @publicApi */
export type ElicitResponseValidation = { ok: true; value: ElicitResponse } | { ok: false; reason: string };

/** Any `requestedSchema`: one from the builder or a hand-written wire one. */
export type RequestedSchemaLike = ElicitationRequestedSchema | ElicitRequestFormParams['requestedSchema'];

const ACTIONS: readonly ElicitAction[] = ['accept', 'decline', 'cancel'];
const CACHE_LIMIT = 256;

// ajv-formats is CommonJS: under nodenext its default import is `module.exports`, whose `.default` is the plugin.
type FormatsPlugin = typeof addFormatsModule.default;
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

let ajv: MetaSchemaAjv | undefined;
/** Keyed by canonical JSON because replays rebuild an equal schema as a new object each round trip. */
const validators = new Map<string, ValidateFunction>();

function getAjv(): MetaSchemaAjv {
  if (ajv === undefined) {
    // strict: false because requested schemas may carry annotation keywords ajv does not know (legacy `enumNames`).
    ajv = new MetaSchemaAjv({ strict: false, allErrors: true, logger: false });
    addFormats(ajv, ['email', 'uri', 'date', 'date-time']);
  }
  return ajv;
}

function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    isPlainObject(item) ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : item,
  );
}

function validatorFor(requestedSchema: RequestedSchemaLike): ValidateFunction {
  // `$schema` may name another dialect (e.g. draft-07); ajv 2020 would refuse it, and form schemas use no dialect-specific keywords.
  const { $schema: _dialect, ...schema } = requestedSchema as RequestedSchemaLike & { $schema?: string };
  const key = canonicalJson(schema);
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = getAjv().compile(schema);
    if (validators.size >= CACHE_LIMIT) {
      // Map iterates in insertion order, so this evicts the oldest entry.
      validators.delete(validators.keys().next().value as string);
    }
    validators.set(key, validate);
  } else {
    // Refresh recency so schemas in active use survive eviction.
    validators.delete(key);
    validators.set(key, validate);
  }
  return validate;
}

function isContentValue(value: unknown): value is ElicitContentValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

function formatErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'content does not match the requested schema';
  return errors
    .map((error) => {
      const path = error.instancePath
        .split('/')
        .slice(1)
        .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
        .join('.');
      return `${path ? `content.${path}` : 'content'} ${error.message ?? 'is invalid'}`;
    })
    .join('; ');
}

/**
 * Checks a client's answer to a form-mode elicitation: the `ElicitResult` shape, and for `accept` that
 * `content` satisfies `requestedSchema` (types, required fields, enums, lengths, bounds and the
 * email/uri/date/date-time formats). Declined and cancelled answers are returned without `content`.
 *
 * A malformed answer is the client's fault and comes back as `{ ok: false, reason }`; a
 * `requestedSchema` that does not compile is the server's bug and throws.
 * @publicApi
 */
export function validateElicitResponse(response: unknown, requestedSchema: RequestedSchemaLike): ElicitResponseValidation {
  if (!isPlainObject(response)) return { ok: false, reason: 'the elicitation response must be an object' };
  const { action, content, _meta } = response;
  if (typeof action !== 'string' || !ACTIONS.includes(action as ElicitAction)) {
    return { ok: false, reason: `action must be one of ${ACTIONS.join(', ')}, got ${JSON.stringify(action) ?? 'undefined'}` };
  }
  if (_meta !== undefined && !isPlainObject(_meta)) return { ok: false, reason: '_meta must be an object' };
  if (content !== undefined) {
    if (!isPlainObject(content)) return { ok: false, reason: 'content must be an object' };
    for (const [key, value] of Object.entries(content)) {
      if (!isContentValue(value)) {
        return { ok: false, reason: `content.${key} must be a string, number, boolean or array of strings` };
      }
    }
  }

  const value: ElicitResponse = { action: action as ElicitAction };
  if (_meta !== undefined) value._meta = _meta;
  if (action !== 'accept') return { ok: true, value };

  // An accept without content is fine for a form with no required fields; validate it as empty.
  const submitted = (content ?? {}) as Record<string, ElicitContentValue>;
  const validate = validatorFor(requestedSchema);
  if (!validate(submitted)) return { ok: false, reason: formatErrors(validate.errors) };
  value.content = submitted;
  return { ok: true, value };
}
