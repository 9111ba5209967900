import type { JsonSchemaObject } from '../protocol/wire.types.js';

/**
 * The values of a TypeScript enum object or of a value list. Numeric TS enums carry a reverse
 * mapping (`E[0] === 'Red'`); those synthetic keys are not values and are dropped.
 */
export function enumValues(source: object | readonly unknown[]): unknown[] {
  if (Array.isArray(source)) return [...(source as readonly unknown[])];
  const record = source as Record<string, unknown>;
  const values: unknown[] = [];
  for (const key of Object.keys(record)) {
    const value = record[key];
    const isReverseMapping = typeof value === 'string' && typeof record[value] === 'number' && String(record[value]) === key;
    if (!isReverseMapping) values.push(value);
  }
  return values;
}

/** `{ type, enum }` with the narrowest `type` shared by all values (omitted when they differ). */
export function enumSchema(values: readonly unknown[]): JsonSchemaObject {
  const type = sharedJsonType(values);
  return type === undefined ? { enum: [...values] } : { type, enum: [...values] };
}

/** JSON type of a value as JSON Schema names it (`integer` for whole numbers). */
export function jsonTypeOf(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    default:
      return undefined;
  }
}

function sharedJsonType(values: readonly unknown[]): string | undefined {
  let shared: string | undefined;
  for (const value of values) {
    const type = jsonTypeOf(value);
    if (type === undefined) return undefined;
    if (shared === undefined || shared === type) shared = type;
    else if ((shared === 'integer' && type === 'number') || (shared === 'number' && type === 'integer')) shared = 'number';
    else return undefined;
  }
  return shared;
}

// Constructors that are never DTOs. Anything else that is a function is treated as a DTO class.
const BUILTIN_TYPES: ReadonlySet<unknown> = new Set<unknown>([
  String, Number, Boolean, Date, Array, Object, Function, Symbol, BigInt, Map, Set, Promise, RegExp,
]);

/** True for a user class (a DTO), false for built-in constructors and non-functions. */
export function isDtoClass(type: unknown): type is Function {
  return typeof type === 'function' && !BUILTIN_TYPES.has(type) && type.prototype !== undefined;
}

/**
 * The schema of a built-in `design:type`: primitives, `Date` (an ISO 8601 string on the wire) and
 * `Array`. `Object` — what TS emits for `any`, `unknown`, unions and interfaces — yields `{}`
 * because it does not say what the value is. `undefined` for DTO classes (the caller handles them).
 */
export function builtinTypeSchema(type: unknown): JsonSchemaObject | undefined {
  switch (type) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Boolean:
      return { type: 'boolean' };
    case Date:
      return { type: 'string', format: 'date-time' };
    case Array:
    case Set:
      return { type: 'array' };
    case Map:
      return { type: 'object' };
    default:
      return isDtoClass(type) ? undefined : {};
  }
}

/**
 * How a generated schema fails to say what a value is: `any` — no keyword constrains it (the `{}` of
 * a union, `object`, `any` or `unknown` type); `untyped-array` — an array whose items are unchecked.
 */
export type SchemaHole = 'any' | 'untyped-array';

// Keywords that say what a value may be; a schema with none of them accepts anything.
const VALUE_KEYWORDS = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'not', 'properties'];

/** The hole in a generated schema, if any. */
export function schemaHole(schema: JsonSchemaObject): SchemaHole | undefined {
  if (schema.type === 'array') return schema.items === undefined && schema.prefixItems === undefined ? 'untyped-array' : undefined;
  return VALUE_KEYWORDS.some((keyword) => schema[keyword] !== undefined) ? undefined : 'any';
}

/** Freezes a schema tree so a cached schema cannot be changed by one consumer for all others. */
export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/**
 * A value's place as the module names it in messages: `['address', 'lines', 0]` → `address.lines[0]`.
 * Segments are keys, or `{ key }` objects (Standard Schema path segments); digits are array indexes.
 */
export function propertyPath(segments: Iterable<PropertyKey | { readonly key: PropertyKey }>): string {
  let path = '';
  for (const segment of segments) {
    const key = typeof segment === 'object' && segment !== null ? segment.key : segment;
    const name = typeof key === 'symbol' ? key.toString() : String(key);
    path += typeof key === 'number' || /^\d+$/.test(name) ? `[${name}]` : path === '' ? name : `.${name}`;
  }
  return path;
}
