import { assignMetadata, type PipeTransform } from '@nestjs/common';
import { MCP_PARAM_ARGS_METADATA } from '../mcp.constants.js';
import type { McpParamtype } from '../enums/mcp-paramtype.enum.js';

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
