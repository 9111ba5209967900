/**
 * Controller routes as Nest's decorators record them (`@Get()`, `@Body()`, …), read for lib/routes.
 * Like nest-adapter.ts, it reads Nest's metadata keys from `@nestjs/common/internal`: the two files
 * are the only ones that do, and the contract spec pins both.
 */
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, RENDER_METADATA, ROUTE_ARGS_METADATA, RouteParamtypes, SSE_METADATA } from '@nestjs/common/internal';

/**
 * Parameter decorators store their metadata under Nest's own route-arguments key, so that
 * `createParamDecorator()` decorators and pipes work on MCP handlers just as on controllers.
 * @internal
 */
export const MCP_PARAM_ARGS_METADATA = ROUTE_ARGS_METADATA;

/** What a controller route parameter receives, named as Nest's `RouteParamtypes` are; `mcp` is one of this module's own. @internal */
export type RouteParamKind =
  | 'request' | 'response' | 'next' | 'body' | 'query' | 'param' | 'headers' | 'session'
  | 'file' | 'files' | 'host' | 'ip' | 'rawBody' | 'custom' | 'mcp';

/** What a numeric parameter type (Nest's `RouteParamtypes`, or an MCP one) stands for. @internal */
export function routeParamKind(type: number): RouteParamKind {
  // createParamDecorator() keys are `<id>__customRouteArgs__:<index>`: not a number.
  if (Number.isNaN(type)) return 'custom';
  // The enum's own names, camel-cased: RAW_BODY → rawBody. A number past them is one of MCP's (100 and up).
  const name = (RouteParamtypes as unknown as Record<number, string | undefined>)[type];
  return name ? (name.toLowerCase().replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase()) as RouteParamKind) : 'mcp';
}

/** One parameter of a route handler, as its decorator recorded it. @internal */
export interface RouteParam {
  index: number;
  kind: RouteParamKind;
  /** The numeric type Nest's params factory is asked for (RouteParamtypes, or an MCP one). */
  type: number;
  data: unknown;
  pipes: readonly unknown[];
}

/** A controller method's HTTP route, read from Nest's own metadata. @internal */
export interface RouteMetadata {
  method: string;
  /** The controller's path(s) and the method's, joined (the first of each when several). */
  path: string;
  params: RouteParam[];
  /** `@Sse()`: an event stream, which no tool result can carry. */
  sse: boolean;
  /** `@Render()`: a view, not JSON. */
  render: boolean;
}

/** The route of a controller method (`@Get()`, `@Post()`, …), or undefined when it is not a route handler. @internal */
export function readRoute(controller: Function, methodName: string, handler: Function): RouteMetadata | undefined {
  const methodPath: unknown = Reflect.getMetadata(PATH_METADATA, handler);
  const method: unknown = Reflect.getMetadata(METHOD_METADATA, handler);
  if (methodPath === undefined || method === undefined) return undefined;
  const first = (path: unknown): string => (Array.isArray(path) ? String(path[0] ?? '') : typeof path === 'string' ? path : '');
  const path = ['', first(Reflect.getMetadata(PATH_METADATA, controller)), first(methodPath)]
    .join('/')
    .replace(/\/+/g, '/')
    .replace(/(.)\/$/, '$1');
  const raw: Record<string, { index: number; data?: unknown; pipes?: unknown[] }> = Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, methodName) ?? {};
  const params = Object.entries(raw)
    .map(([key, value]) => {
      const type = Number(key.split(':')[0]);
      return { index: value.index, kind: routeParamKind(type), type, data: value.data, pipes: value.pipes ?? [] };
    })
    .sort((a, b) => a.index - b.index);
  return {
    method: RequestMethod[method as number] ?? 'GET',
    path,
    params,
    sse: Reflect.getMetadata(SSE_METADATA, handler) === true,
    render: Reflect.getMetadata(RENDER_METADATA, handler) !== undefined,
  };
}
