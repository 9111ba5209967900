import { assignMetadata, type PipeTransform } from '@nestjs/common';
import { MCP_PARAM_ARGS_METADATA } from '../invocation/nest-route-metadata.js';
import { McpParamtype } from '../interfaces/mcp-paramtype.enum.js';
import { isDtoClass } from '../schema/schema-helpers.js';
import { NEST_REQUEST_PARAMTYPE, RESOURCE_ARGUMENTS } from '../definitions/handler-method.js';

/**
 * Builds a parameter decorator that records `(paramtype, data, pipes)` for one argument index,
 * the same way Nest's own route parameter decorators do. @internal
 */
export function createMcpParamDecorator(paramtype: McpParamtype) {
  return (data?: unknown, ...pipes: (PipeTransform | Function)[]): ParameterDecorator =>
    (target, key, index) => {
      if (key === undefined) {
        throw new Error('MCP parameter decorators can only be used on methods');
      }
      const existing = Reflect.getMetadata(MCP_PARAM_ARGS_METADATA, target.constructor, key) ?? {};
      Reflect.defineMetadata(
        MCP_PARAM_ARGS_METADATA,
        assignMetadata(existing, paramtype as number as never, index, data as never, ...(pipes as PipeTransform[])),
        target.constructor,
        key,
      );
    };
}

/** The indexes of the method's decorated parameters, and whether one takes arguments. */
function decoratedParameters(target: object, key: string | symbol): { indexes: Set<number>; takesArguments: boolean } {
  const raw: Record<string, { index: number }> = Reflect.getMetadata(MCP_PARAM_ARGS_METADATA, target.constructor, key) ?? {};
  const entries = Object.entries(raw);
  return {
    indexes: new Set(entries.map(([, value]) => value.index)),
    takesArguments: entries.some(([name]) => [McpParamtype.ARGS, McpParamtype.ARG].includes(Number(name.split(':')[0]))),
  };
}

/**
 * Convention of the handler decorators: a single undecorated DTO parameter takes the arguments, as
 * if it had `@McpArgs()`. Applied by the method decorator itself, when it is applied: TypeScript
 * has recorded `design:paramtypes` and run the parameter decorators by then, and nothing is
 * written to the class later (at start-up). @internal
 */
export function applyDtoConvention(target: object, key: string | symbol): void {
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', target, key) ?? [];
  const { indexes, takesArguments } = decoratedParameters(target, key);
  if (takesArguments) return;
  const candidates = types.map((type, index) => ({ type, index })).filter(({ index }) => !indexes.has(index));
  if (candidates.length === 1 && isDtoClass(candidates[0].type)) createMcpParamDecorator(McpParamtype.ARGS)()(target, key, candidates[0].index);
}

// What the positional convention gives each parameter, in order: the arguments, the context, the HTTP request.
const POSITIONAL = [McpParamtype.ARGS, McpParamtype.CONTEXT, NEST_REQUEST_PARAMTYPE as McpParamtype];

/**
 * Convention of handlers whose arguments are a Standard Schema, as `@rekog/mcp-nest` calls them:
 * a method with no MCP parameter decorator takes `(args, context, request)`, so such a method runs
 * here unchanged. A method with any MCP parameter decorator keeps exactly what it declares. @internal
 */
export function applyPositionalConvention(target: object, key: string | symbol, method: unknown, argumentsData?: string): void {
  if (decoratedParameters(target, key).indexes.size > 0) return;
  const types: unknown[] | undefined = Reflect.getMetadata('design:paramtypes', target, key);
  const count = Math.min(types?.length ?? (typeof method === 'function' ? method.length : 0), POSITIONAL.length);
  for (let index = 0; index < count; index++) createMcpParamDecorator(POSITIONAL[index])(index === 0 ? argumentsData : undefined)(target, key, index);
}

/**
 * The positional convention without a schema: applied only when the first parameter is a plain object
 * (a destructured `{ uri, id }`, an interface), so a forgotten `@McpArg()` on `id: string` still fails
 * start-up. Resources and templates get `{ uri, ...variables }` as their arguments. @internal
 */
export function applyObjectPositionalConvention(target: object, key: string | symbol, method: unknown, kind: 'arguments' | 'resource' = 'arguments'): void {
  const types: unknown[] = Reflect.getMetadata('design:paramtypes', target, key) ?? [];
  if (types[0] === Object) applyPositionalConvention(target, key, method, kind === 'resource' ? RESOURCE_ARGUMENTS : undefined);
}

/** `@McpComplete` methods without parameter decorators take `(value, context)`. @internal */
export function applyCompletionConvention(target: object, key: string | symbol): void {
  if (decoratedParameters(target, key).indexes.size > 0) return;
  createMcpParamDecorator(McpParamtype.ARG)('value')(target, key, 0);
  createMcpParamDecorator(McpParamtype.ARG)('context')(target, key, 1);
}
