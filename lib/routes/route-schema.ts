import { DefaultValuePipe, ParseArrayPipe, ParseBoolPipe, ParseEnumPipe, ParseFloatPipe, ParseIntPipe, ParseUUIDPipe } from '@nestjs/common';
import type { RouteMetadata, RouteParam } from '../invocation/nest-route-metadata.js';
import type { JsonSchemaObject, Tool } from '../protocol/wire.types.js';
import { composeObjectSchema, dtoToJsonSchema, schemaForDesignType, type NamedParameterSchema } from '../schema/index.js';
import { enumSchema, enumValues, isDtoClass } from '../schema/schema-helpers.js';
import { ROUTE_REFUSED } from './route-messages.js';

/**
 * Where each tool argument goes in the request the route sees: path parameters, query values, and
 * the body (its DTO's properties side by side with the others, or the whole of it under `body`).
 */
export interface RouteLayout {
  params: readonly string[];
  query: readonly string[];
  /** `flat`: every argument that is not a path or query name; `nested`: the `body` argument; `fields`: the named ones. */
  body: { mode: 'none' } | { mode: 'flat' } | { mode: 'nested' } | { mode: 'fields'; names: readonly string[] };
  /** An open `@Query()` (no DTO) takes the arguments no one else names, when the body does not. */
  restToQuery: boolean;
}

/** Parameter kinds a tool call cannot fill: the route writes the response itself, or reads an upload. */
const REFUSED_KINDS: Partial<Record<RouteParam['kind'], string>> = {
  response: 'it takes @Res(): it writes the HTTP response itself',
  next: 'it takes @Next(): it hands the HTTP request on',
  file: 'it takes an uploaded file',
  files: 'it takes uploaded files',
  rawBody: 'it reads the raw body',
};

/** A route's tool input: its schema, where each argument goes, and the body's DTO class (its class-validator rules are checked too). */
export interface RouteInput {
  inputSchema: Tool['inputSchema'];
  layout: RouteLayout;
  bodyDto?: Function;
}

/** The route's input schema, built from its own parameters, and where each argument goes. */
export function buildRouteInput(route: RouteMetadata, paramTypes: readonly unknown[], source: string): RouteInput {
  if (route.sse) throw new Error(ROUTE_REFUSED(source, 'it is an @Sse() event stream'));
  if (route.render) throw new Error(ROUTE_REFUSED(source, 'it renders a view (@Render())'));
  const named: NamedParameterSchema[] = [];
  const params: string[] = [];
  const query: string[] = [];
  const bodyFields: string[] = [];
  let wholeBody: { type: unknown } | undefined;
  let openQuery = false;
  for (const param of route.params) {
    const refusal = REFUSED_KINDS[param.kind];
    if (refusal) throw new Error(ROUTE_REFUSED(source, refusal));
    // @McpArg()/@McpArgs() (100, 101) name MCP arguments; a route's come from @Body(), @Param() and @Query().
    if (param.kind === 'mcp' && (param.type === 100 || param.type === 101)) throw new Error(ROUTE_REFUSED(source, 'it uses @McpArg()/@McpArgs(): a route tool takes @Body(), @Param() and @Query()'));
    const type = paramTypes[param.index];
    const name = typeof param.data === 'string' ? param.data : undefined;
    if (param.kind === 'param' || param.kind === 'query') {
      const into = param.kind === 'param' ? params : query;
      if (name !== undefined) {
        into.push(name);
        named.push({ name, ...pipedSchema(param.pipes, type, param.kind === 'param') });
      } else if (isDtoClass(type)) {
        const dto = dtoToJsonSchema(type);
        const required = new Set(dto.required ?? []);
        for (const [property, schema] of Object.entries(dto.properties)) {
          into.push(property);
          named.push({ name: property, schema, required: required.has(property) });
        }
      } else if (param.kind === 'query') openQuery = true;
      // `@Param() params` of no class: the path's own `:name` segments, added below.
    } else if (param.kind === 'body') {
      if (name !== undefined) {
        bodyFields.push(name);
        named.push({ name, ...pipedSchema(param.pipes, type, true) });
      } else wholeBody = { type };
    }
  }
  // Every `:name` of the path is an argument, read by a parameter or not: the URL (and a guard reading `params`) has it.
  for (const segment of pathParameters(route.path)) {
    if (params.includes(segment)) continue;
    params.push(segment);
    named.push({ name: segment, schema: { type: 'string' } });
  }
  const body = bodyLayout(wholeBody, bodyFields, named, [...params, ...query]);
  const inputSchema = composeObjectSchema(body.extra ? [...named, ...body.extra] : named, { where: `route tool ${source}` }) as Tool['inputSchema'];
  const layout: RouteLayout = { params: unique(params), query: unique(query), body: body.layout, restToQuery: openQuery && body.layout.mode !== 'flat' };
  return { inputSchema, layout, ...(wholeBody && isDtoClass(wholeBody.type) ? { bodyDto: wholeBody.type } : {}) };
}

/**
 * The body's place in the arguments. A DTO's properties sit beside the path and query arguments,
 * unless one of them has the same name: then the whole body is the `body` argument. A body of no
 * class (`any`, a record) takes whatever the other arguments do not name.
 */
function bodyLayout(
  whole: { type: unknown } | undefined,
  fields: readonly string[],
  named: NamedParameterSchema[],
  taken: readonly string[],
): { layout: RouteLayout['body']; extra?: NamedParameterSchema[] } {
  if (!whole) return { layout: fields.length > 0 ? { mode: 'fields', names: fields } : { mode: 'none' } };
  if (isDtoClass(whole.type)) {
    const dto = dtoToJsonSchema(whole.type);
    const required = new Set(dto.required ?? []);
    const properties = Object.entries(dto.properties);
    if (!properties.some(([property]) => taken.includes(property)) && fields.length === 0) {
      const extra = properties.map(([name, schema]) => ({ name, schema, required: required.has(name) }));
      // Recursive DTOs keep their `$defs`; composeObjectSchema hoists them from any property.
      if (dto.$defs && extra.length > 0) extra[0] = { ...extra[0], schema: { ...extra[0].schema, $defs: dto.$defs } };
      return { layout: { mode: 'flat' }, extra };
    }
    return { layout: { mode: 'nested' }, extra: [{ name: 'body', schema: dto as JsonSchemaObject }] };
  }
  if (whole.type === Object || whole.type === undefined) return { layout: { mode: 'flat' } };
  return { layout: { mode: 'nested' }, extra: [{ name: 'body', schema: schemaForDesignType(whole.type), required: false }] };
}

/**
 * A path, query or body value's schema from its pipes, as the REST call would convert it (`required`:
 * a path parameter, or a body field, always is):
 * `ParseIntPipe` → integer, `ParseUUIDPipe` → uuid string, `ParseEnumPipe` → its values, … Without
 * a converting pipe, from its TypeScript type (the value arrives as a string, as in a URL).
 */
function pipedSchema(pipes: readonly unknown[], type: unknown, required: boolean): { schema: JsonSchemaObject; required: boolean } {
  let schema: JsonSchemaObject | undefined;
  let optional = false;
  for (const pipe of pipes) {
    const options = (pipe as { options?: { optional?: boolean; items?: unknown } }).options;
    if (options?.optional) optional = true;
    if (is(pipe, DefaultValuePipe)) {
      optional = true;
      const value = (pipe as { defaultValue?: unknown }).defaultValue;
      if (value !== undefined) schema = { ...(schema ?? {}), default: value };
      continue;
    }
    const converted = convertedSchema(pipe, options?.items);
    if (converted) schema = { ...converted, ...(schema?.default !== undefined ? { default: schema.default } : {}) };
  }
  // A converting pipe refuses a missing value (unless `optional`), so the REST call needs it too.
  const converts = schema?.type !== undefined || schema?.enum !== undefined;
  return {
    schema: schema ?? (isDtoClass(type) ? schemaForDesignType(type) : primitiveSchema(type)),
    required: (required || converts) && !optional && schema?.default === undefined,
  };
}

function convertedSchema(pipe: unknown, items: unknown): JsonSchemaObject | undefined {
  if (is(pipe, ParseIntPipe)) return { type: 'integer' };
  if (is(pipe, ParseFloatPipe)) return { type: 'number' };
  if (is(pipe, ParseBoolPipe)) return { type: 'boolean' };
  if (is(pipe, ParseUUIDPipe)) return { type: 'string', format: 'uuid' };
  if (is(pipe, ParseEnumPipe)) {
    const values = (pipe as { enumType?: object }).enumType;
    return values ? enumSchema(enumValues(values)) : { type: 'string' };
  }
  if (is(pipe, ParseArrayPipe)) return { type: 'array', items: typeof items === 'function' ? schemaForDesignType(items) : { type: 'string' } };
  return undefined;
}

/** A pipe given as its class or as an instance. */
function is(pipe: unknown, kind: Function): boolean {
  return pipe === kind || pipe instanceof kind || (typeof pipe === 'function' && pipe.prototype instanceof kind);
}

function primitiveSchema(type: unknown): JsonSchemaObject {
  if (type === Number) return { type: 'number' };
  if (type === Boolean) return { type: 'boolean' };
  return { type: 'string' };
}

/** The `:name` segments of an Express-style path. */
export function pathParameters(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]);
}

function unique(names: readonly string[]): string[] {
  return [...new Set(names)];
}
