import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA } from '../mcp.constants.js';
import { applyDtoConvention, applyObjectPositionalConvention } from './param.utils.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from '../interfaces/handler-metadata.interface.js';

/**
 * Marks a provider method as the reader of one MCP resource. Return text, a `Buffer` /
 * `Uint8Array` (sent as base64 `blob`), a contents object, or an array of them. A method without MCP
 * parameter decorators whose first parameter is an object gets `({ uri }, context, request)`.
 * @publicApi
 */
export function McpResource(options: McpResourceOptions): MethodDecorator {
  return (target, key, descriptor) => {
    applyObjectPositionalConvention(target, key, descriptor.value, 'resource');
    SetMetadata(MCP_RESOURCE_METADATA, options)(target, key, descriptor);
  };
}

/**
 * Marks a provider method as the reader of the resources matching an RFC 6570 URI template;
 * template variables are injected with `@McpArg('name')`, or, to a method without MCP parameter
 * decorators whose first parameter is an object, as `({ uri, ...variables }, context, request)`.
 * @publicApi
 */
export function McpResourceTemplate(options: McpResourceTemplateOptions): MethodDecorator {
  return (target, key, descriptor) => {
    applyDtoConvention(target, key);
    applyObjectPositionalConvention(target, key, descriptor.value, 'resource');
    SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options)(target, key, descriptor);
  };
}
