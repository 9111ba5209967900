import type { ArgumentsHost, ContextType, ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { getMcpAuth } from '../auth/mcp-auth-info.js';
import type { McpAuthInfo } from '../auth/mcp-auth.interfaces.js';
import type { McpInvocation, McpInvocationKind } from './mcp-invocation.js';
import { ExecutionContextHost } from './nest-adapter.js';
import { MCP_CONTEXT_TYPE } from '../mcp.constants.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/wire.types.js';
import type { McpPromptContext, McpResourceContext, McpToolContext } from '../context/mcp-context.interface.js';

/** `context.getType()` of guards and interceptors: `'mcp'` on MCP handlers. @publicApi */
export type McpContextType = typeof MCP_CONTEXT_TYPE | ContextType;

/**
 * The MCP view of an `ExecutionContext`, as `GqlExecutionContext` is GraphQL's: in a guard,
 * interceptor or filter, `McpExecutionContext.create(context)` gives the JSON-RPC request, the
 * handler kind and name, the arguments, the MCP context and the HTTP request.
 *
 * @example
 * canActivate(context: ExecutionContext) {
 *   if (context.getType<McpContextType>() !== 'mcp') return true;
 *   const mcp = McpExecutionContext.create(context);
 *   return mcp.getName() !== 'delete-everything' || mcp.getAuth()?.scopes.includes('admin') === true;
 * }
 * @publicApi
 */
export class McpExecutionContext extends ExecutionContextHost {
  static create(context: ExecutionContext | ArgumentsHost): McpExecutionContext {
    const executionContext = context as Partial<ExecutionContext>;
    const created = new McpExecutionContext(
      context.getArgs(),
      executionContext.getClass?.() ?? null,
      executionContext.getHandler?.() ?? null,
    );
    created.setType(context.getType());
    return created;
  }

  /** True on MCP handlers (`getType() === 'mcp'`). */
  isMcp(): boolean {
    return this.getType<string>() === MCP_CONTEXT_TYPE;
  }

  /** The invocation the MCP handler was called with; `undefined` outside MCP. */
  getInvocation(): McpInvocation | undefined {
    if (!this.isMcp()) return undefined;
    return this.getArgByIndex<McpInvocation | undefined>(0);
  }

  /** The JSON-RPC request (`tools/call`, `prompts/get`, `resources/read`, `tools/list` for probes, …). */
  getRequest(): JsonRpcRequest | undefined {
    return this.getInvocation()?.request;
  }

  /** `tool`, `prompt`, `resource`, `resource_template` or `completion`. */
  getKind(): McpInvocationKind | undefined {
    return this.getInvocation()?.kind;
  }

  /** The tool or prompt name, or the resource URI. */
  getName(): string | undefined {
    return this.getInvocation()?.name;
  }

  /** The arguments: as sent in guards, validated (and converted) once the handler's parameters are read; empty for probes. */
  getArguments<T extends object = JsonObject>(): T {
    return (this.getInvocation()?.arguments ?? {}) as T;
  }

  /** The handler's context (progress, elicitation, client info…); `undefined` for probes. */
  getContext<T extends McpToolContext | McpPromptContext | McpResourceContext = McpToolContext>(): T | undefined {
    return this.getInvocation()?.context as T | undefined;
  }

  /** The HTTP request the MCP request came in (undefined on stdio). */
  getHttpRequest<T = IncomingMessage>(): T | undefined {
    return this.getInvocation()?.httpRequest as T | undefined;
  }

  /** The verified bearer token (module `auth` configured), else `undefined`. */
  getAuth(): McpAuthInfo | undefined {
    return getMcpAuth(this.getHttpRequest());
  }

  /** True when `tools/list` is only asking whether a `hideWhenDenied` tool may be listed. */
  isProbe(): boolean {
    return this.getInvocation()?.probe === true;
  }
}
