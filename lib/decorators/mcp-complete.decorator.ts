import { SetMetadata } from '@nestjs/common';
import { MCP_COMPLETE_METADATA } from '../mcp.constants.js';
import { applyCompletionConvention } from './param.utils.js';
import type { McpCompleteOptions } from '../interfaces/handler-metadata.interface.js';

/**
 * Marks a provider method as the completion source of one prompt argument or template variable.
 * The method receives `(value: string, context: { arguments: Record<string, string> })` and
 * returns the candidate values (at most 100 are sent), or `{ values, total?, hasMore? }`.
 * Enum-typed arguments complete by themselves, without such a method.
 * @publicApi
 */
export function McpComplete(options: McpCompleteOptions): MethodDecorator {
  return (target, key, descriptor) => {
    applyCompletionConvention(target, key);
    SetMetadata(MCP_COMPLETE_METADATA, options)(target, key, descriptor);
  };
}
