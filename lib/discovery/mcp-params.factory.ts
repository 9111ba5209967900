import type { ParamsFactory } from '@nestjs/core';
import { McpParamtype } from '../enums/mcp-paramtype.enum.js';
import type { McpHandlerContext } from '../context/mcp-handler.context.js';
import type { McpHandlerKind } from '../enums/mcp-handler-kind.enum.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/wire.types.js';

/** What an invocation runs: a handler kind, or a completion source. @publicApi */
export type McpInvocationKind = McpHandlerKind | 'completion';

/** Nest's `RouteParamtypes.REQUEST` (`@Req()`); the enum itself is internal to @nestjs/common. */
const NEST_REQUEST_PARAMTYPE = 0;

/**
 * What the dispatcher hands to an MCP handler: the first (and only) argument guards, interceptors,
 * pipes and filters see (`context.getArgByIndex(0)`; read it through `McpExecutionContext`).
 * @publicApi
 */
export interface McpInvocation {
  request: JsonRpcRequest;
  /** Tool, prompt, resource, resource template, or completion. */
  kind?: McpInvocationKind;
  /** The tool or prompt name, or the resource URI being read (for completions: the prompt name or URI template). */
  name?: string;
  /**
   * True when `tools/list` runs the guards of a `hideWhenDenied` tool to decide whether to list it:
   * no arguments, no context, and the handler never runs.
   */
  probe?: boolean;
  /** Validated (and, for prompts and templates, converted) arguments. */
  arguments: JsonObject;
  /** The DTO instance for `@McpArgs()`, when its type is a class. */
  dto?: object;
  /** The handler's context (absent for probes and completions). */
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
        // Only what the client sent: an absent `toString` argument is undefined, not Object's method.
        return Object.hasOwn(invocation.arguments, data as string) ? invocation.arguments[data as string] : undefined;
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
