import type { ParamsFactory } from '@nestjs/core';
import { NEST_REQUEST_PARAMTYPE, RESOURCE_ARGUMENTS } from '../definitions/handler-method.js';
import { McpParamtype } from '../interfaces/mcp-paramtype.enum.js';
import { prepareInvocation, type McpInvocation } from './mcp-invocation.js';

/**
 * Maps each MCP parameter type to its value, as Nest's ParamsFactory contract asks. Every value is
 * a promise that first awaits the call's preparation (argument checks, requestState claim): Nest
 * awaits parameter values before pipes and the method see them, after guards, inside interceptors.
 * @internal
 */
export class McpParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, data: unknown, args: unknown[]): unknown {
    const invocation = args[0] as McpInvocation | undefined;
    if (!invocation) return undefined;
    return prepareInvocation(invocation).then(() => mcpParamValue(type, data, invocation));
  }
}

/** The value of one MCP parameter of a prepared invocation (also read so by the adapter's direct calls). @internal */
export function mcpParamValue(type: number, data: unknown, invocation: McpInvocation): unknown {
  switch (type) {
    case McpParamtype.ARGS:
      // A resource handler called by the positional convention gets the URI read beside the variables.
      if (data === RESOURCE_ARGUMENTS) return { uri: invocation.name, ...invocation.arguments };
      return invocation.dto ?? invocation.arguments;
    case McpParamtype.ARG:
      // Only what the client sent: an absent `toString` argument is undefined, not Object's method.
      return Object.hasOwn(invocation.arguments, data as string) ? invocation.arguments[data as string] : undefined;
    case McpParamtype.CONTEXT:
    case McpParamtype.ELICITOR:
      return invocation.context;
    case McpParamtype.REQUEST:
      return invocation.request;
    case NEST_REQUEST_PARAMTYPE:
      // `@Req()` works on MCP handlers too.
      return invocation.httpRequest;
    default:
      return undefined;
  }
}
