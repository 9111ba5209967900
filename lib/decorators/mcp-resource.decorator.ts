import { SetMetadata } from '@nestjs/common';
import { MCP_RESOURCE_METADATA, MCP_RESOURCE_TEMPLATE_METADATA } from '../mcp.constants.js';
import { isStandardSchema } from '../schema/standard-schema.js';
import { RESOURCE_ARGUMENTS } from '../definitions/handler-method.js';
import { applyDtoConvention, applyObjectPositionalConvention, applyPositionalConvention } from './param.utils.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from '../interfaces/handler-metadata.interface.js';
import type { McpHandlerArgs, McpTypedMethodDecorator } from './typed-handler.types.js';

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
 * decorators (whose first parameter is an object, or with a Standard Schema `parameters`), as
 * `({ uri, ...variables }, context, request)`, type-checked against the schema's output.
 * @publicApi
 */
export function McpResourceTemplate<const O extends McpResourceTemplateOptions>(options: O): McpTypedMethodDecorator<McpHandlerArgs<O> & { uri: string }> {
  return (target, key, descriptor) => {
    if (isStandardSchema(options.parameters)) applyPositionalConvention(target, key, descriptor.value, RESOURCE_ARGUMENTS);
    else {
      applyDtoConvention(target, key);
      applyObjectPositionalConvention(target, key, descriptor.value, 'resource');
    }
    SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options)(target, key, descriptor);
  };
}
