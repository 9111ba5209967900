import type { ParamsFactory } from '@nestjs/core';
import { McpParamtype } from '../interfaces/mcp-paramtype.enum.js';
import { routeParamKind } from '../invocation/nest-route-metadata.js';
import { prepareInvocation } from '../invocation/mcp-invocation.js';
import { mcpInvocationOf, type RouteRequest } from './route-exchange.js';

/**
 * Fills a route's parameters when it is called as a tool, as Nest's own factory does for an HTTP
 * request: `@Body()`, `@Param()`, `@Query()`, `@Headers()`, `@Req()`… from the route request the call
 * made, and the MCP context parameters (`@ToolContext()`, `@Elicitor()`, `@McpRequest()`). Each value
 * first awaits the call's preparation, as an MCP handler's do: after guards, inside interceptors.
 */
export class RouteParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, data: unknown, args: unknown[]): unknown {
    const request = args[0] as RouteRequest | undefined;
    const invocation = mcpInvocationOf(request);
    if (!request || !invocation) return undefined;
    return prepareInvocation(invocation).then(() => {
      const key = typeof data === 'string' ? data : undefined;
      const pick = (from: unknown) => (key === undefined ? from : (from as Record<string, unknown> | undefined)?.[key]);
      switch (routeParamKind(type)) {
        case 'request':
          return request;
        case 'body':
          return pick(request.body);
        case 'query':
          return pick(request.query);
        case 'param':
          return pick(request.params);
        case 'headers':
          return key === undefined ? request.headers : (request.headers as Record<string, unknown> | undefined)?.[key.toLowerCase()];
        case 'session':
          return request.session;
        case 'ip':
          return request.ip;
        case 'host':
          return pick(request.hosts);
        case 'mcp':
          if (type === McpParamtype.CONTEXT || type === McpParamtype.ELICITOR) return invocation.context;
          return type === McpParamtype.REQUEST ? invocation.request : undefined;
        default:
          return undefined;
      }
    });
  }
}
