import type { PipeTransform } from '@nestjs/common';
import { McpParamtype } from '../interfaces/mcp-paramtype.enum.js';
import type { McpArgOptions } from '../interfaces/handler-metadata.interface.js';
import { createMcpParamDecorator } from './param.utils.js';

/** @internal per-parameter options of `@McpArg()`, by parameter index */
export const MCP_ARG_OPTIONS_METADATA = 'mcp:arg_options';

const argsDecorator = createMcpParamDecorator(McpParamtype.ARGS);
const argDecorator = createMcpParamDecorator(McpParamtype.ARG);

/**
 * Injects all arguments of the call: an instance of the parameter's DTO class (validated against
 * its class-validator decorators), or the plain object when the type is not a class.
 * @publicApi
 */
export function McpArgs(...pipes: (PipeTransform | Function)[]): ParameterDecorator {
  return argsDecorator(undefined, ...pipes);
}

/**
 * Injects one named argument. Its JSON Schema comes from the parameter's TypeScript type
 * (string, number, boolean, arrays, enums, DTO classes) and the options.
 *
 * @example
 * ＠McpTool({ description: 'Echoes a message' })
 * echo(＠McpArg('message', { description: 'What to echo' }) message: string) { return message; }
 * @publicApi
 */
export function McpArg(name: string, options: McpArgOptions = {}, ...pipes: (PipeTransform | Function)[]): ParameterDecorator {
  const record = argDecorator(name, ...pipes);
  return (target, key, index) => {
    record(target, key, index);
    const all: Record<number, McpArgOptions> = Reflect.getMetadata(MCP_ARG_OPTIONS_METADATA, target.constructor, key!) ?? {};
    Reflect.defineMetadata(MCP_ARG_OPTIONS_METADATA, { ...all, [index]: options }, target.constructor, key!);
  };
}
