import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA } from '../mcp.constants.js';
import { applyDtoConvention } from './param.utils.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from '../interfaces/handler-metadata.interface.js';

/**
 * Marks a provider method as the reader of one MCP resource. Return text, a `Buffer` /
 * `Uint8Array` (sent as base64 `blob`), a contents object, or an array of them.
 * @publicApi
 */
export const McpResource = (options: McpResourceOptions): MethodDecorator => SetMetadata(MCP_RESOURCE_METADATA, options);

/**
 * Marks a provider method as the reader of the resources matching an RFC 6570 URI template;
 * template variables are injected with `@McpArg('name')`.
 * @publicApi
 */
export function McpResourceTemplate(options: McpResourceTemplateOptions): MethodDecorator {
  return (target, key, descriptor) => {
    applyDtoConvention(target, key);
    SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options)(target, key, descriptor);
  };
}
