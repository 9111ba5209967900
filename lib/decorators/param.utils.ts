import { assignMetadata, type PipeTransform } from '@nestjs/common';
import { MCP_PARAM_ARGS_METADATA } from '../mcp.constants.js';
import { McpParamtype } from '../interfaces/mcp-paramtype.enum.js';
import { isDtoClass } from '../schema/schema-helpers.js';

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

/** `@McpComplete` methods without parameter decorators take `(value, context)`. @internal */
export function applyCompletionConvention(target: object, key: string | symbol): void {
  if (decoratedParameters(target, key).indexes.size > 0) return;
  createMcpParamDecorator(McpParamtype.ARG)('value')(target, key, 0);
  createMcpParamDecorator(McpParamtype.ARG)('context')(target, key, 1);
}
