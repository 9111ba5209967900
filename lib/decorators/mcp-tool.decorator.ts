import { SetMetadata } from '@nestjs/common';
import { MCP_TOOL_METADATA } from '../mcp.constants.js';
import { applyDtoConvention } from './param.utils.js';
import type { McpToolMetadata, McpToolOptions } from '../interfaces/handler-metadata.interface.js';

/**
 * Marks a provider method as an MCP tool. Its arguments come from `@McpArgs()` (one DTO) or
 * `@McpArg()` parameters; its return value becomes the `CallToolResult`.
 *
 * @example
 * ＠McpTool({ description: 'Greets someone' })
 * hello(＠McpArg('name') name: string) { return `Hello, ${name}!`; }
 * @publicApi
 */
export function McpTool(options: McpToolOptions): MethodDecorator {
  return (target, key, descriptor) => {
    const metadata: McpToolMetadata = { ...options, name: options.name ?? String(key) };
    // With an explicit inputSchema, arguments reach the method only through @McpArgs().
    if (!options.inputSchema) applyDtoConvention(target, key);
    SetMetadata(MCP_TOOL_METADATA, metadata)(target, key, descriptor);
  };
}
