import type { JsonSchemaObject } from '../protocol/wire.types.js';
import { dtoToJsonSchema } from './dto-schema.factory.js';
import { builtinTypeSchema, enumSchema, enumValues } from './schema-helpers.js';
import { isPlainObject } from '../protocol/json-value.js';

/**
 * Options of {@link schemaForDesignType}, as a named-parameter decorator collects them.
 * @publicApi
 */
export interface DesignTypeSchemaOptions {
  /** A TS enum object or a list of allowed values. */
  enum?: object | readonly unknown[];
  /** Item type of an array parameter (`design:paramtypes` only says `Array`). */
  items?: Function;
  description?: string;
  /** Raw JSON Schema: used verbatim, every other option and the design type are ignored. */
  schema?: JsonSchemaObject;
}

/**
 * The JSON Schema of one named tool parameter from its `design:paramtypes` entry.
 * `String`/`Number`/`Boolean` map to their JSON types, `Date` to a `date-time` string, `Array` to
 * `array` (with `items` from `options.items`), DTO classes to {@link dtoToJsonSchema}. `Object` —
 * what TypeScript emits for `any`, `unknown`, unions and interfaces — gives `{}` (any value),
 * since a guess would reject valid input. An explicit `options.schema` is returned as is.
 * @publicApi
 */
export function schemaForDesignType(type: unknown, options: DesignTypeSchemaOptions = {}): JsonSchemaObject {
  if (options.schema !== undefined) return options.schema;
  let schema: JsonSchemaObject;
  if (options.enum !== undefined) {
    schema = enumSchema(enumValues(options.enum));
    // An enum-typed array parameter constrains its items.
    if (type === Array) schema = { type: 'array', items: schema };
  } else {
    schema = typeToSchema(type);
    if (options.items !== undefined && schema.type === 'array') schema.items = typeToSchema(options.items);
  }
  if (options.description !== undefined) schema.description = options.description;
  return schema;
}

/** A fresh (mutable) schema object for a design type; DTO schemas are copied from the cache. */
function typeToSchema(type: unknown): JsonSchemaObject {
  return builtinTypeSchema(type) ?? { ...dtoToJsonSchema(type as Function) };
}

/**
 * One named parameter for {@link composeObjectSchema}.
 * @publicApi
 */
export interface NamedParameterSchema {
  name: string;
  schema: JsonSchemaObject;
  /** Default `true`. */
  required?: boolean;
}

/**
 * Options of {@link composeObjectSchema}.
 * @publicApi
 */
export interface ComposeObjectSchemaOptions {
  /** Emitted when set, e.g. `false` for a closed argument object. */
  additionalProperties?: boolean;
  /** Names the owner in errors, e.g. `tool "search"`. */
  where?: string;
}

/**
 * Builds a tool's root input schema from named parameters. `$defs` found at the top of parameter
 * schemas (recursive DTOs, see `dtoToJsonSchema`) are hoisted to the root, where their
 * `#/$defs/<Name>` references point. Throws when two parameters share a name or bring different
 * `$defs` under one name.
 * @publicApi
 */
export function composeObjectSchema(
  parameters: readonly NamedParameterSchema[],
  options: ComposeObjectSchemaOptions = {},
): JsonSchemaObject & { type: 'object'; properties: Record<string, JsonSchemaObject> } {
  const where = options.where ?? 'parameters';
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  const defs: Record<string, unknown> = {};
  for (const { name, schema, required: isRequired = true } of parameters) {
    if (Object.hasOwn(properties, name)) throw new Error(`${where}: duplicate parameter "${name}"`);
    let property = schema;
    if (isPlainObject(schema.$defs)) {
      const { $defs, ...rest } = schema;
      property = rest;
      for (const [defName, def] of Object.entries($defs as Record<string, unknown>)) {
        if (Object.hasOwn(defs, defName) && !deepEqual(defs[defName], def)) {
          throw new Error(`${where}: parameter "${name}" brings a different $defs entry "${defName}" than another parameter`);
        }
        defs[defName] = def;
      }
    }
    properties[name] = property;
    if (isRequired) required.push(name);
  }
  const root: JsonSchemaObject & { type: 'object'; properties: Record<string, JsonSchemaObject> } = { type: 'object', properties };
  if (required.length > 0) root.required = required;
  if (options.additionalProperties !== undefined) root.additionalProperties = options.additionalProperties;
  if (Object.keys(defs).length > 0) root.$defs = defs;
  return root;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  if (!isPlainObject(a) || !isPlainObject(b) || Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && deepEqual(a[key], b[key]));
}
