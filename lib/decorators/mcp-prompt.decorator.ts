import { SetMetadata } from '@nestjs/common';
import { MCP_PROMPT_METADATA } from '../mcp.constants.js';
import { isStandardSchema } from '../schema/standard-schema.js';
import { applyDtoConvention, applyObjectPositionalConvention, applyPositionalConvention } from './param.utils.js';
import type { McpPromptMetadata, McpPromptOptions } from '../interfaces/handler-metadata.interface.js';
import type { McpHandlerArgs, McpTypedMethodDecorator } from './typed-handler.types.js';

/**
 * Marks a provider method as an MCP prompt. Arguments come from `@McpArg()` parameters (converted
 * from the strings the client sends to the declared type), one `@McpArgs()` DTO, or a Standard
 * Schema `parameters` (its output is the method's first parameter, type-checked). Return a string
 * (one user message), an array of messages, or a full `GetPromptResult`.
 * @publicApi
 */
export function McpPrompt<const O extends McpPromptOptions>(options: O): McpTypedMethodDecorator<McpHandlerArgs<O>> {
  return (target, key, descriptor) => {
    const metadata: McpPromptMetadata = { ...options, name: options.name ?? String(key) };
    if (isStandardSchema(options.parameters)) applyPositionalConvention(target, key, descriptor.value);
    else {
      applyDtoConvention(target, key);
      applyObjectPositionalConvention(target, key, descriptor.value);
    }
    SetMetadata(MCP_PROMPT_METADATA, metadata)(target, key, descriptor);
  };
}
