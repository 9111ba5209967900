import { Injectable, StreamableFile } from '@nestjs/common';
import type { McpDefinitionFactory, ToolDefinition } from '../definitions/definition.factory.js';
import type { HandlerMethod } from '../definitions/handler-method.js';
import type { McpToolMetadata } from '../interfaces/handler-metadata.interface.js';
import { McpInvokerFactory, type CallStyle, type InvocableMethod } from '../invocation/invoker.factory.js';
import { readRoute, type RouteMetadata, type RouteParam } from '../invocation/nest-route-metadata.js';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import type { ToolAnnotations } from '../protocol/wire.types.js';
import { RouteParamsFactory } from './route-params.factory.js';
import { routeExchange, type RouteResponse } from './route-exchange.js';
import { ROUTE_REFUSED, ROUTE_SCHEMA_GIVEN } from './route-messages.js';
import { toRouteResult } from './route-result.js';
import { buildRouteInput } from './route-schema.js';

/** A controller method found at start-up. @internal */
export interface RouteMethod extends InvocableMethod {
  prototype: object;
  source: string;
}

/** A route tool, ready for the registry (a `RegisteredTool`). @internal */
export type RouteTool = ToolDefinition & {
  invoke(invocation: McpInvocation): Promise<unknown>;
  extractsParameters: boolean;
  canList?: (invocation: McpInvocation) => Promise<boolean>;
};

/** Parameters the route's params factory fills (custom decorators fill themselves). */
const FILLED = new Set<RouteParam['kind']>(['request', 'body', 'query', 'param', 'headers', 'session', 'host', 'ip', 'mcp']);

const params = new RouteParamsFactory();

/**
 * Controller routes marked `@McpTool()`: each stays a REST route and is also a tool. A call runs
 * through the same invoker as a provider tool, with the route's own guards, interceptors, pipes
 * (global ones included) and filters in Nest's order, under `getType() === 'http'`, and its
 * parameters filled from the tool's arguments by `RouteParamsFactory`: the route never runs without
 * its guards, and no second HTTP hop is made (so it serves stdio too).
 * @internal
 */
@Injectable()
export class McpRouteTools {
  constructor(private readonly invokers: McpInvokerFactory) {}

  /** The route of a controller method, or undefined when it is not a route handler. */
  routeOf(method: RouteMethod): RouteMetadata | undefined {
    const handler = (method.prototype as Record<string, Function>)[method.methodName];
    return readRoute(method.classRef, method.methodName, handler);
  }

  tool(method: RouteMethod, route: RouteMetadata, handlerMethod: HandlerMethod, metadata: McpToolMetadata, definitions: McpDefinitionFactory): RouteTool {
    const { source } = method;
    if (metadata.inputSchema !== undefined || metadata.parameters !== undefined) throw new Error(ROUTE_SCHEMA_GIVEN(source));
    if (handlerMethod.returnType === StreamableFile) throw new Error(ROUTE_REFUSED(source, 'it returns a StreamableFile'));
    const { inputSchema, layout, bodyDto } = buildRouteInput(route, handlerMethod.paramTypes, source);
    const annotations = metadata.annotations ?? annotationsOf(route.method);
    // Checked as a provider tool's arguments are, whatever pipes the app has (the route's own run after):
    // its advertised schema, then the body DTO's class-validator rules.
    const definition = definitions.tool(
      { ...handlerMethod, params: [], argOptions: {}, paramTypes: [] },
      { ...metadata, inputSchema, ...(annotations ? { annotations } : {}) },
    );
    const style: CallStyle = {
      paramsFactory: params,
      contextType: 'http',
      args: (invocation) => [...routeExchange(invocation, layout, route.method, route.path), undefined],
      written: (args) => (args[1] as RouteResponse).written(),
    };
    const invoke = this.invokers.createInvoker(method, style);
    return {
      ...definition,
      ...(bodyDto ? { dto: bodyDto, ...(layout.body.mode === 'nested' ? { dtoArgument: 'body' } : {}) } : {}),
      invoke: async (invocation) => toRouteResult(await invoke(invocation), source),
      extractsParameters: route.params.some((param) => FILLED.has(param.kind)),
      ...(metadata.hideWhenDenied ? { canList: this.invokers.createGuardProbe(method, style) } : {}),
    };
  }
}

/** What the HTTP method says of a route, unless the decorator says it. */
function annotationsOf(method: string): ToolAnnotations | undefined {
  if (method === 'GET' || method === 'HEAD') return { readOnlyHint: true };
  if (method === 'PUT') return { idempotentHint: true };
  if (method === 'DELETE') return { destructiveHint: true };
  return undefined;
}
