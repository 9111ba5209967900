import type { ParamsFactory } from '@nestjs/core';
import { McpParamtype } from '../enums/mcp-paramtype.enum.js';
import type { McpHandlerContext } from '../context/mcp-handler.context.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/wire.types.js';

/** Nest's `RouteParamtypes.REQUEST` (`@Req()`); the enum itself is internal to @nestjs/common. */
const NEST_REQUEST_PARAMTYPE = 0;

/** What the dispatcher hands to an MCP handler; parameter decorators pick from it. @internal */
export interface McpInvocation {
  request: JsonRpcRequest;
  /** Validated (and, for prompts and templates, converted) arguments. */
  arguments: JsonObject;
  /** The DTO instance for `@McpArgs()`, when its type is a class. */
  dto?: object;
  context: McpHandlerContext;
  httpRequest?: unknown;
}

/** Maps each MCP parameter type to its value, as Nest's ParamsFactory contract asks. @internal */
export class McpParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, data: unknown, args: unknown[]): unknown {
    const invocation = args[0] as McpInvocation | undefined;
    if (!invocation) return undefined;
    switch (type) {
      case McpParamtype.ARGS:
        return invocation.dto ?? invocation.arguments;
      case McpParamtype.ARG:
        return invocation.arguments[data as string];
      case McpParamtype.CONTEXT:
      case McpParamtype.ELICITOR:
        return invocation.context;
      case McpParamtype.REQUEST:
        return invocation.request;
      case McpParamtype.HTTP_REQUEST:
      case NEST_REQUEST_PARAMTYPE:
        // `@Req()` works on MCP handlers too.
        return invocation.httpRequest;
      default:
        return undefined;
    }
  }
}
