import { SetMetadata } from '@nestjs/common';
import { MCP_TOOL_METADATA } from '../mcp.constants.js';
import { isStandardSchema } from '../schema/standard-schema.js';
import { applyDtoConvention, applyObjectPositionalConvention, applyPositionalConvention } from './param.utils.js';
import type { McpToolMetadata, McpToolOptions } from '../interfaces/handler-metadata.interface.js';
import type { McpHandlerArgs, McpToolReturn, McpTypedMethodDecorator } from './typed-handler.types.js';

/**
 * Marks a provider method as an MCP tool. Its arguments come from `@McpArgs()` (one DTO),
 * `@McpArg()` parameters, or a Standard Schema `inputSchema` (Zod, ArkType, Valibot); its return
 * value becomes the `CallToolResult`. With a Standard Schema the method is type-checked against it:
 * its first parameter must accept the schema's output, and with a Standard Schema `output`, it must
 * return what that schema accepts.
 *
 * @example
 * ＠McpTool({ description: 'Greets someone' })
 * hello(＠McpArg('name') name: string) { return `Hello, ${name}!`; }
 *
 * ＠McpTool({ description: 'Greets someone', inputSchema: z.object({ name: z.string() }) })
 * greet({ name }: { name: string }) { return `Hello, ${name}!`; }
 * @publicApi
 */
export function McpTool<const O extends McpToolOptions>(options: O): McpTypedMethodDecorator<McpHandlerArgs<O>, McpToolReturn<O>> {
  return (target, key, descriptor) => {
    const metadata: McpToolMetadata = { ...options, name: options.name ?? String(key) };
    const input = options.inputSchema ?? options.parameters;
    // With a Standard Schema the arguments may be positional; with a raw JSON Schema they reach the method only through @McpArgs().
    if (isStandardSchema(input)) applyPositionalConvention(target, key, descriptor.value);
    else if (!input) {
      applyDtoConvention(target, key);
      applyObjectPositionalConvention(target, key, descriptor.value);
    }
    SetMetadata(MCP_TOOL_METADATA, metadata)(target, key, descriptor);
  };
}
