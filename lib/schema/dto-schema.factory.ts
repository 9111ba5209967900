// Over 300 lines on purpose: one walk over class-validator's and class-transformer's metadata, mapping
// every decorator kind to its JSON Schema keywords in one table, with the schema-hole detection that
// reads the same walk. Split, the mapping would be spread over files that all need the same state.
import 'reflect-metadata';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { MetadataStorage } from 'class-validator';
import { defaultMetadataStorage as transformerStorage } from 'class-transformer/cjs/storage.js';
import type { JsonSchemaObject } from '../protocol/wire.types.js';
import { getMcpFieldOptions, getMcpObjectOptions, prototypeChain } from './mcp-field.decorator.js';
import type { McpFieldOptions } from './mcp-field.decorator.js';
import { builtinTypeSchema, deepFreeze, enumSchema, enumValues, isDtoClass, jsonTypeOf, schemaHole } from './schema-helpers.js';
import type { SchemaHole } from './schema-helpers.js';

/**
 * The JSON Schema 2020-12 object schema generated for a DTO class.
 * @publicApi
 */
export type DtoJsonSchema = JsonSchemaObject & {
  type: 'object';
  properties: Record<string, JsonSchemaObject>;
  required?: string[];
  additionalProperties?: boolean;
  $defs?: Record<string, JsonSchemaObject>;
};

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/**
 * A property whose generated schema does not say what its value is (see {@link dtoSchemaHoles}).
 * @internal
 */
export interface DtoSchemaHole {
  /** The class that declares the property: the root DTO or one nested in it. */
  readonly dto: Function;
  readonly property: string;
  readonly hole: SchemaHole;
}

const cache = new WeakMap<Function, DtoJsonSchema>();
const holesCache = new WeakMap<Function, readonly DtoSchemaHole[]>();

/**
 * Generates the JSON Schema 2020-12 object schema of a DTO class from its class-validator
 * decorators, `@Type()` (class-transformer), `@McpField()`/`@McpObject()` and `design:type`.
 *
 * - A property is required unless it has `@IsOptional()`/`@ValidateIf()` or `@McpField({ optional: true })`.
 * - Nested DTOs are inlined. A DTO that contains itself (directly or through others) is put under
 *   the root's `$defs` (named after the class, unique per process) and referenced as
 *   `#/$defs/<Name>` — never `#`, so the `$defs` can be hoisted when the schema is embedded as a
 *   named parameter (`composeObjectSchema`).
 * - `additionalProperties` is not emitted (unknown properties are allowed, as with class-validator's
 *   defaults) unless `@McpObject({ additionalProperties: false })` says so.
 * - Validators the schema cannot express (custom constraints, `@Matches` with `i`/`m`/`s` flags, ...)
 *   add nothing; `validateDto()` still checks them.
 *
 * The result is cached per class and deep-frozen: copy it before changing it.
 * @publicApi
 */
export function dtoToJsonSchema(dto: Function): DtoJsonSchema {
  let schema = cache.get(dto);
  if (schema === undefined) {
    const holes: DtoSchemaHole[] = [];
    schema = deepFreeze(buildRootSchema(dto, holes));
    cache.set(dto, schema);
    holesCache.set(dto, Object.freeze(holes));
  }
  return schema;
}

/**
 * The properties of a DTO (and of the DTOs nested in it) whose schema accepts any value or any
 * array items, found while {@link dtoToJsonSchema} built it: start-up warns about them.
 * @internal
 */
export function dtoSchemaHoles(dto: Function): readonly DtoSchemaHole[] {
  dtoToJsonSchema(dto);
  return holesCache.get(dto)!;
}

interface BuildContext {
  /** Classes whose schema is being built; a class met again while on the stack is a cycle. */
  readonly stack: Function[];
  /** Classes that live under `$defs` (undefined until their def is built). */
  readonly defs: Map<Function, DtoJsonSchema | undefined>;
  /** Properties whose schema says nothing about their value, collected for start-up warnings. */
  readonly holes: DtoSchemaHole[];
}

function buildRootSchema(root: Function, holes: DtoSchemaHole[]): DtoJsonSchema {
  const ctx: BuildContext = { stack: [], defs: new Map(), holes };
  const schema = buildObjectSchema(root, ctx);
  // Building a def can discover further recursive classes, so loop until every def is built.
  for (let pending = firstPendingDef(ctx); pending !== undefined; pending = firstPendingDef(ctx)) {
    ctx.defs.set(pending, buildObjectSchema(pending, ctx));
  }
  if (ctx.defs.size > 0) {
    const defs: Record<string, JsonSchemaObject> = {};
    for (const [cls, def] of ctx.defs) defs[defName(cls)] = def!;
    schema.$defs = defs;
  }
  return schema;
}

function firstPendingDef(ctx: BuildContext): Function | undefined {
  for (const [cls, def] of ctx.defs) if (def === undefined) return cls;
  return undefined;
}

/** The schema of a class used as a property type: inline, or a `$ref` into `$defs` when it recurses. */
function classSchema(cls: Function, ctx: BuildContext): JsonSchemaObject {
  if (ctx.defs.has(cls) || ctx.stack.includes(cls)) {
    if (!ctx.defs.has(cls)) ctx.defs.set(cls, undefined);
    return { $ref: `#/$defs/${defName(cls)}` };
  }
  return buildObjectSchema(cls, ctx);
}

// Def names are unique per class process-wide, so `$defs` of several DTO schemas can be hoisted into
// one document (see composeObjectSchema) without clashes.
const defNames = new WeakMap<Function, string>();
const usedDefNames = new Set<string>();

function defName(cls: Function): string {
  let name = defNames.get(cls);
  if (name === undefined) {
    const base = cls.name.replace(/[^A-Za-z0-9_.-]/g, '_') || 'Dto';
    name = base;
    for (let n = 2; usedDefNames.has(name); n++) name = `${base}_${n}`;
    usedDefNames.add(name);
    defNames.set(cls, name);
  }
  return name;
}

function buildObjectSchema(cls: Function, ctx: BuildContext): DtoJsonSchema {
  ctx.stack.push(cls);
  try {
    const byProperty = groupMetadataByProperty(cls);
    const fields = getMcpFieldOptions(cls);
    for (const name of fields.keys()) if (!byProperty.has(name)) byProperty.set(name, []);

    const properties: Record<string, JsonSchemaObject> = {};
    const required: string[] = [];
    for (const [name, metas] of byProperty) {
      const field = fields.get(name);
      properties[name] = buildPropertySchema(cls, name, metas, field, ctx);
      if (isRequired(metas, field)) required.push(name);
    }
    const schema: DtoJsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    const objectOptions = getMcpObjectOptions(cls);
    return objectOptions === undefined ? schema : { ...schema, ...objectOptions, type: 'object', properties };
  } finally {
    ctx.stack.pop();
  }
}

/** class-validator metadata of a class grouped by property, base-class properties first. */
function groupMetadataByProperty(cls: Function): Map<string, ValidationMetadata[]> {
  // Same selection as `validate(instance)` without groups, so the schema mirrors what is validated.
  const metas = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
  const depth = new Map(prototypeChain(cls).map((ctor, index) => [ctor, index]));
  const ordered = metas
    .filter((meta) => typeof meta.target === 'function')
    .map((meta, index) => ({ meta, index, depth: depth.get(meta.target as Function) ?? 0 }))
    .sort((a, b) => a.depth - b.depth || a.index - b.index);
  const grouped = new Map<string, ValidationMetadata[]>();
  for (const { meta } of ordered) {
    let list = grouped.get(meta.propertyName);
    if (list === undefined) grouped.set(meta.propertyName, (list = []));
    list.push(meta);
  }
  return grouped;
}

function isRequired(metas: readonly ValidationMetadata[], field: McpFieldOptions | undefined): boolean {
  if (metas.some((meta) => meta.type === ValidationTypes.IS_DEFINED)) return true;
  if (metas.some((meta) => meta.type === ValidationTypes.CONDITIONAL_VALIDATION)) return false;
  return field?.optional !== true;
}

/** Collects what validators say about one value (the property itself, or each array item). */
class SchemaAccumulator {
  type: string | undefined;
  readonly keywords: JsonSchemaObject = {};
  notEmpty = false;
  used = false;

  assertType(type: string): void {
    this.used = true;
    // `integer` refines `number`; other conflicts are unsatisfiable anyway, so the first one stays.
    if (this.type === undefined || (this.type === 'number' && type === 'integer')) this.type = type;
  }

  set(keyword: string, value: unknown): void {
    this.used = true;
    this.keywords[keyword] = value;
  }

  toSchema(): JsonSchemaObject {
    const schema: JsonSchemaObject = this.type === undefined ? {} : { type: this.type };
    Object.assign(schema, this.keywords);
    // @IsNotEmpty() only forbids '' (and null/undefined) — for strings that is `minLength: 1`.
    if (this.notEmpty && this.type === 'string' && !(typeof schema.minLength === 'number' && schema.minLength >= 1)) schema.minLength = 1;
    return schema;
  }
}

// Validators about the array itself even when declared with `{ each: true }`.
const ARRAY_LEVEL_VALIDATORS: ReadonlySet<string> = new Set(['isArray', 'arrayMinSize', 'arrayMaxSize', 'arrayNotEmpty', 'arrayUnique', 'arrayContains', 'arrayNotContains']);

const IGNORED_TYPES: ReadonlySet<string> = new Set([
  ValidationTypes.CONDITIONAL_VALIDATION,
  ValidationTypes.IS_DEFINED,
  ValidationTypes.WHITELIST,
  ValidationTypes.PROMISE_VALIDATION,
]);

function buildPropertySchema(
  cls: Function,
  name: string,
  metas: readonly ValidationMetadata[],
  field: McpFieldOptions | undefined,
  ctx: BuildContext,
): JsonSchemaObject {
  const self = new SchemaAccumulator();
  const item = new SchemaAccumulator();
  let nested = false;
  let each = false;
  for (const meta of metas) {
    if (IGNORED_TYPES.has(meta.type)) continue;
    if (meta.type === ValidationTypes.NESTED_VALIDATION) {
      nested = true;
      each ||= meta.each;
      continue;
    }
    const validator = meta.name ?? meta.type;
    const perItem = meta.each && !ARRAY_LEVEL_VALIDATORS.has(validator);
    each ||= perItem;
    applyValidator(validator, meta.constraints ?? [], perItem ? item : self);
  }

  const designType: unknown = Reflect.getMetadata('design:type', cls.prototype as object, name);
  const declaredType = transformerType(cls, name);
  const isArray = each || designType === Array || designType === Set || self.type === 'array';

  let schema: JsonSchemaObject;
  if (isArray) {
    self.assertType('array');
    schema = self.toSchema();
    let items: JsonSchemaObject | undefined = item.used ? item.toSchema() : undefined;
    if (declaredType !== undefined) items = mergeTypeSchema(typeSchema(declaredType, ctx), items);
    else if (nested && items === undefined) items = { type: 'object' };
    if (items !== undefined) schema.items = items;
  } else {
    schema = self.toSchema();
    const valueType = declaredType ?? designType;
    if (self.type === undefined || (nested && isDtoClass(valueType))) schema = mergeTypeSchema(typeSchema(valueType, ctx), schema);
  }

  if (field !== undefined) {
    const { optional: _optional, ...keywords } = field;
    Object.assign(schema, keywords);
  }
  const hole = schemaHole(schema);
  if (hole !== undefined) ctx.holes.push({ dto: cls, property: name, hole });
  return schema;
}

/** The class named by `@Type(() => X)`, if any. */
function transformerType(cls: Function, name: string): unknown {
  const meta = transformerStorage.findTypeMetadata(cls, name);
  if (meta === undefined) return undefined;
  try {
    return meta.typeFunction();
  } catch {
    // Type functions that need class-transformer's runtime options cannot be resolved statically.
    return meta.reflectedType;
  }
}

function typeSchema(type: unknown, ctx: BuildContext): JsonSchemaObject {
  return builtinTypeSchema(type) ?? classSchema(type as Function, ctx);
}

/** Validator keywords over the type's schema; the validators' `type`, if any, wins. */
function mergeTypeSchema(base: JsonSchemaObject, extra: JsonSchemaObject | undefined): JsonSchemaObject {
  if (extra === undefined) return base;
  if (base.$ref !== undefined && Object.keys(extra).every((key) => key === 'type' && extra.type === 'object')) return base;
  return { ...base, ...extra };
}

function applyValidator(name: string, constraints: readonly unknown[], acc: SchemaAccumulator): void {
  const [first, second] = constraints;
  switch (name) {
    case 'isString':
    case 'isAlpha':
    case 'isAlphanumeric':
    case 'isAscii':
    case 'isLowercase':
    case 'isUppercase':
    case 'isNumberString':
    case 'isBooleanString':
    case 'isHexadecimal':
    case 'isJwt':
    case 'isMongoId':
    case 'isSemVer':
      acc.assertType('string');
      break;
    case 'isInt':
      acc.assertType('integer');
      break;
    case 'isNumber':
      acc.assertType('number');
      break;
    case 'isBoolean':
      acc.assertType('boolean');
      break;
    case 'isArray':
      acc.assertType('array');
      break;
    case 'isObject':
      acc.assertType('object');
      break;
    case 'isNotEmptyObject':
      acc.assertType('object');
      acc.set('minProperties', 1);
      break;
    case 'isEmail':
      stringFormat(acc, 'email');
      break;
    case 'isUrl':
      stringFormat(acc, 'uri');
      break;
    case 'isUuid':
      stringFormat(acc, 'uuid');
      break;
    case 'isFqdn':
      stringFormat(acc, 'hostname');
      break;
    case 'isIp':
      if (String(first) === '4' || String(first) === '6') stringFormat(acc, `ipv${String(first)}`);
      else acc.assertType('string');
      break;
    // ISO 8601 strings are advertised as RFC 3339 `date-time`, the format clients know; a field
    // that wants dates only can say `@McpField({ format: 'date' })`.
    case 'isDateString':
    case 'isIso8601':
    case 'isRFC3339':
    case 'isDate':
      stringFormat(acc, 'date-time');
      break;
    case 'isEnum':
      if (first !== null && typeof first === 'object') applyEnum(acc, enumValues(first));
      break;
    case 'isIn':
      if (Array.isArray(first)) applyEnum(acc, first);
      break;
    case 'equals': {
      const type = jsonTypeOf(first);
      if (type !== undefined) acc.assertType(type);
      acc.set('const', first);
      break;
    }
    case 'min':
      numberKeyword(acc, 'minimum', first);
      break;
    case 'max':
      numberKeyword(acc, 'maximum', first);
      break;
    case 'isPositive':
      numberKeyword(acc, 'exclusiveMinimum', 0);
      break;
    case 'isNegative':
      numberKeyword(acc, 'exclusiveMaximum', 0);
      break;
    case 'isDivisibleBy':
      numberKeyword(acc, 'multipleOf', first);
      break;
    case 'minLength':
      lengthKeyword(acc, 'minLength', first);
      break;
    case 'maxLength':
      lengthKeyword(acc, 'maxLength', first);
      break;
    case 'isLength':
      lengthKeyword(acc, 'minLength', first);
      lengthKeyword(acc, 'maxLength', second);
      break;
    case 'matches':
      applyPattern(acc, first, second);
      break;
    case 'isNotEmpty':
      acc.notEmpty = true;
      acc.used = true;
      break;
    case 'arrayMinSize':
      arrayKeyword(acc, 'minItems', first);
      break;
    case 'arrayMaxSize':
      arrayKeyword(acc, 'maxItems', first);
      break;
    case 'arrayNotEmpty':
      arrayKeyword(acc, 'minItems', Math.max(1, (acc.keywords.minItems as number | undefined) ?? 1));
      break;
    case 'arrayUnique':
      // With an identifier function uniqueness is not value equality, which the schema cannot say.
      acc.assertType('array');
      if (typeof first !== 'function') acc.set('uniqueItems', true);
      break;
    default:
      // Custom or unmapped validators: nothing the schema can express; validateDto() runs them.
      break;
  }
}

function stringFormat(acc: SchemaAccumulator, format: string): void {
  acc.assertType('string');
  acc.set('format', format);
}

function numberKeyword(acc: SchemaAccumulator, keyword: string, value: unknown): void {
  acc.assertType('number');
  if (typeof value === 'number' && Number.isFinite(value)) acc.set(keyword, value);
}

function lengthKeyword(acc: SchemaAccumulator, keyword: string, value: unknown): void {
  acc.assertType('string');
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) acc.set(keyword, value);
}

function arrayKeyword(acc: SchemaAccumulator, keyword: string, value: unknown): void {
  acc.assertType('array');
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) acc.set(keyword, value);
}

function applyEnum(acc: SchemaAccumulator, values: readonly unknown[]): void {
  const schema = enumSchema(values);
  if (typeof schema.type === 'string') acc.assertType(schema.type);
  acc.set('enum', schema.enum);
}

// JSON Schema patterns are ECMA-262 regexes without flags (ajv compiles them with `u`).
const REPRESENTABLE_FLAGS = /^[gud]*$/;

function applyPattern(acc: SchemaAccumulator, pattern: unknown, modifiers: unknown): void {
  acc.assertType('string');
  let source: string;
  let flags: string;
  if (pattern instanceof RegExp) {
    source = pattern.source;
    flags = pattern.flags;
  } else if (typeof pattern === 'string') {
    source = pattern;
    flags = typeof modifiers === 'string' ? modifiers : '';
  } else {
    return;
  }
  if (!REPRESENTABLE_FLAGS.test(flags)) return;
  try {
    new RegExp(source, 'u');
  } catch {
    // Valid without `u` but not with it (e.g. `\-` outside a class): leave it to class-validator
    // rather than publish a schema that fails to compile.
    return;
  }
  acc.set('pattern', source);
}
