import type { Logger } from '@nestjs/common';
import { McpParamtype } from '../interfaces/mcp-paramtype.enum.js';
import {
  ANY_VALUE_ARGUMENT,
  ANY_VALUE_PROPERTY,
  EMPTY_DTO_SCHEMA,
  INVALID_HEADER_PARAM,
  MIXED_ARGUMENT_STYLES,
  UNDECORATED_PARAMETER,
  UNTYPED_ARRAY_ARGUMENT,
  UNTYPED_ARRAY_PROPERTY,
} from '../mcp.messages.js';
import type { JsonSchemaObject, Tool } from '../protocol/wire.types.js';
import { assertObjectRootSchema, assertValidSchema, composeObjectSchema, dtoToJsonSchema, schemaForDesignType } from '../schema/index.js';
import { dtoSchemaHoles } from '../schema/dto-schema.factory.js';
import { isDtoClass, schemaHole } from '../schema/schema-helpers.js';
import type { HandlerMethod, McpParamMetadata } from './handler-method.js';

/** The arguments of one handler: their schema, the `@McpArgs()` DTO, and the arguments mirrored into headers. */
export interface InputSchema {
  inputSchema: Tool['inputSchema'];
  dto?: Function;
  headerParams?: Map<string, string>;
}

/**
 * Start-up warnings about schema holes (arguments that let any value through). A DTO used by
 * several handlers is reported once per property.
 */
export class SchemaWarnings {
  private readonly warnedProperties = new Map<Function, Set<string>>();

  constructor(private readonly logger: Pick<Logger, 'warn'>) {}

  argument(name: string, schema: JsonSchemaObject, types: readonly unknown[], source: string): void {
    const hole = schemaHole(schema);
    if (hole === 'any') this.logger.warn(ANY_VALUE_ARGUMENT(source, name));
    if (hole === 'untyped-array') this.logger.warn(UNTYPED_ARRAY_ARGUMENT(source, name));
    for (const type of types) if (isDtoClass(type)) this.dto(type, source);
  }

  dto(dto: Function, source: string): void {
    for (const { dto: owner, property, hole } of dtoSchemaHoles(dto)) {
      let warned = this.warnedProperties.get(owner);
      if (warned === undefined) this.warnedProperties.set(owner, (warned = new Set()));
      if (warned.has(property)) continue;
      warned.add(property);
      this.logger.warn(hole === 'any' ? ANY_VALUE_PROPERTY(source, owner.name, property) : UNTYPED_ARRAY_PROPERTY(source, owner.name, property));
    }
  }

  emptyDto(dto: Function, source: string, role: 'input' | 'output'): void {
    if (Object.keys(dtoToJsonSchema(dto).properties).length === 0) this.logger.warn(EMPTY_DTO_SCHEMA(source, dto.name, role));
  }
}

/**
 * The arguments' JSON Schema, generated once from the DTO or the named parameters (or the explicit one,
 * compiled to prove it valid unless a schema library converted it and checks the values itself).
 */
export function buildInputSchema(method: HandlerMethod, warnings: SchemaWarnings, explicit?: JsonSchemaObject & { type: 'object' }, converted = false): InputSchema {
  const { params, paramTypes: types, source } = method;
  assertEveryParameterDecorated(types, params, source);
  if (explicit) {
    if (!converted) assertValidSchema(explicit, source);
    assertObjectRootSchema(explicit, source);
    return { inputSchema: explicit };
  }
  const whole = params.filter((param) => param.type === McpParamtype.ARGS);
  const named = params.filter((param) => param.type === McpParamtype.ARG);
  if (whole.length > 0 && named.length > 0) throw new Error(MIXED_ARGUMENT_STYLES(source));
  if (whole.length > 0) {
    const type = types[whole[0].index];
    if (!isDtoClass(type)) return { inputSchema: { type: 'object' } };
    warnings.emptyDto(type, source, 'input');
    warnings.dto(type, source);
    return { inputSchema: dtoToJsonSchema(type) as Tool['inputSchema'], dto: type };
  }
  if (named.length === 0) return { inputSchema: composeObjectSchema([], { additionalProperties: false }) };
  const args = named.map((param) => {
    const argOptions = method.argOptions[param.index] ?? {};
    const name = String(param.data);
    const schema = schemaForDesignType(types[param.index], argOptions);
    // An explicit `schema` is the author's word, even when it is `{}`.
    if (argOptions.schema === undefined) warnings.argument(name, schema, [types[param.index], argOptions.items], source);
    return {
      name,
      schema: argOptions.title ? { ...schema, title: argOptions.title } : schema,
      required: argOptions.required !== false,
      header: argOptions.header,
    };
  });
  const headerParams = headerParameters(args, source);
  const inputSchema = composeObjectSchema(
    args.map(({ name, schema, required, header }) => ({ name, required, schema: header ? { ...schema, 'x-mcp-header': header } : schema })),
    { where: source },
  ) as Tool['inputSchema'];
  assertValidSchema(inputSchema, source);
  return { inputSchema, headerParams };
}

/**
 * Every parameter must say what it receives: an undecorated one is always `undefined` (MCP fills
 * only decorated parameters), so the method would compute from a value no client can send.
 * Context and custom (`createParamDecorator`) decorators count as decorated.
 */
function assertEveryParameterDecorated(types: readonly unknown[], params: readonly McpParamMetadata[], source: string): void {
  const decorated = new Set(params.map((param) => param.index));
  types.forEach((type, index) => {
    if (!decorated.has(index)) throw new Error(UNDECORATED_PARAMETER(source, index + 1, typeof type === 'function' ? type.name : String(type)));
  });
}

/** RFC 9110 token characters: what an `x-mcp-header` name may use. */
const HEADER_TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/** Checks the `header` options (SEP-2243 rules) and maps each mirrored property to its header name. */
function headerParameters(args: { name: string; schema: JsonSchemaObject; header?: string }[], source: string): Map<string, string> | undefined {
  const headers = new Map<string, string>();
  const seen = new Set<string>();
  for (const { name, schema, header } of args) {
    if (header === undefined) continue;
    if (!HEADER_TOKEN.test(header)) throw new Error(INVALID_HEADER_PARAM(source, name, 'the header name must be an HTTP token'));
    if (!HEADER_TYPES.has(schema.type as string)) {
      throw new Error(INVALID_HEADER_PARAM(source, name, 'only string, integer and boolean arguments can be mirrored'));
    }
    if (seen.has(header.toLowerCase())) throw new Error(INVALID_HEADER_PARAM(source, name, `header "${header}" is used twice`));
    seen.add(header.toLowerCase());
    headers.set(name, header);
  }
  return headers.size > 0 ? headers : undefined;
}
