import { SetMetadata } from '@nestjs/common';
import { MCP_PROMPT_METADATA } from '../mcp.constants.js';
import { applyDtoConvention } from './param.utils.js';
import type { McpPromptMetadata, McpPromptOptions } from '../interfaces/handler-metadata.interface.js';

/**
 * Marks a provider method as an MCP prompt. Arguments come from `@McpArg()` parameters (converted
 * from the strings the client sends to the declared type) or one `@McpArgs()` DTO. Return a
 * string (one user message), an array of messages, or a full `GetPromptResult`.
 * @publicApi
 */
export function McpPrompt(options: McpPromptOptions): MethodDecorator {
  return (target, key, descriptor) => {
    const metadata: McpPromptMetadata = { ...options, name: options.name ?? String(key) };
    applyDtoConvention(target, key);
    SetMetadata(MCP_PROMPT_METADATA, metadata)(target, key, descriptor);
  };
}
