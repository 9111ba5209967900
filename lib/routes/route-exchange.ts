import { HttpException, HttpStatus } from '@nestjs/common';
import type { McpInvocation } from '../invocation/mcp-invocation.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject } from '../protocol/wire.types.js';
import type { RouteLayout } from './route-schema.js';

const INVOCATION = Symbol('nest-mcp:route-invocation');
const EXCHANGE = Symbol('nest-mcp:route-exchange');

/** The request a route's guards, interceptors, pipes and parameters see when it is called as a tool. */
export type RouteRequest = Record<string, unknown> & { [INVOCATION]: McpInvocation };

/**
 * The MCP call behind a route tool's request: in a guard, interceptor or filter of a controller route,
 * `mcpInvocationOf(context.switchToHttp().getRequest())` tells a tool call (its name, arguments,
 * context) from a REST request (`undefined`).
 * @publicApi
 */
export function mcpInvocationOf(request: unknown): McpInvocation | undefined {
  return typeof request === 'object' && request !== null ? (request as Partial<RouteRequest>)[INVOCATION] : undefined;
}

/**
 * The response a route tool's enhancers get. Nothing is sent: a REST exception filter that writes
 * its answer here (`response.status(…).json(…)`, or Nest's `BaseExceptionFilter`) has it taken as the
 * call's answer; headers are kept for interceptors that set them, and dropped.
 */
export class RouteResponse {
  statusCode: number = HttpStatus.OK;
  headersSent = false;
  body: unknown;
  private readonly headers = new Map<string, unknown>();

  status(code: number): this {
    this.statusCode = code;
    return this;
  }

  code(code: number): this {
    return this.status(code);
  }

  header(name: string, value: unknown): this {
    this.headers.set(name.toLowerCase(), value);
    return this;
  }

  setHeader(name: string, value: unknown): this {
    return this.header(name, value);
  }

  getHeader(name: string): unknown {
    return this.headers.get(name.toLowerCase());
  }

  removeHeader(name: string): void {
    this.headers.delete(name.toLowerCase());
  }

  type(): this {
    return this;
  }

  json(body: unknown): this {
    return this.send(body);
  }

  send(body?: unknown): this {
    this.body = body;
    this.headersSent = true;
    return this;
  }

  end(body?: unknown): this {
    return this.send(body);
  }

  /** What a filter wrote: a value, or an error of its status (mapped as a thrown one would be). */
  written(): { value: unknown } | { error: unknown } | undefined {
    if (!this.headersSent) return undefined;
    if (this.statusCode < 400) return { value: this.body };
    return { error: new HttpException(this.body ?? HttpStatus[this.statusCode] ?? 'Error', this.statusCode) };
  }
}

/**
 * The request and response of one tool call to a route, made once per invocation (guards, the
 * probe, parameters and filters share them). The request is the MCP HTTP request seen through a
 * route's eyes: its headers, `auth` (the module's verified token) and `user` (what the app's own
 * middleware or guards set) are inherited from it; method, URL, path parameters, query and body are
 * the route's, from the tool's arguments. On stdio there is no HTTP request under it.
 */
export function routeExchange(invocation: McpInvocation, layout: RouteLayout, method: string, routePath: string): [RouteRequest, RouteResponse] {
  const held = invocation as McpInvocation & { [EXCHANGE]?: [RouteRequest, RouteResponse] };
  if (held[EXCHANGE]) return held[EXCHANGE];
  const parts = requestParts(invocation.arguments, layout);
  const base = typeof invocation.httpRequest === 'object' && invocation.httpRequest !== null ? invocation.httpRequest : { headers: {} };
  const entries = Object.entries(parts.query);
  const pairs = entries.flatMap(([key, value]): [string, string][] =>
    Array.isArray(value) ? value.map((item): [string, string] => [key, String(item)]) : typeof value === 'string' ? [[key, value]] : [],
  );
  const path = fillPath(routePath, parts.params);
  const url = pairs.length > 0 ? `${path}?${new URLSearchParams(pairs).toString()}` : path;
  const own = (value: unknown): PropertyDescriptor => ({ value, writable: true, enumerable: true, configurable: true });
  // Own properties over the MCP request: defined, not assigned, as Express's request prototype has getter-only ones (`path`, `query`).
  const request = Object.create(base, {
    method: own(method),
    url: own(url),
    originalUrl: own(url),
    path: own(path),
    params: own(parts.params),
    query: own(parts.query),
    body: own(parts.body),
    [INVOCATION]: own(invocation),
  }) as RouteRequest;
  const exchange: [RouteRequest, RouteResponse] = [request, new RouteResponse()];
  // On the invocation itself (a symbol key, unseen by JSON), as its preparation is: see mcp-invocation.ts.
  Object.defineProperty(held, EXCHANGE, { value: exchange, configurable: true });
  return exchange;
}

/** The tool's arguments split as the route reads them; path and query values are text, as in a URL. */
export function requestParts(args: JsonObject, layout: RouteLayout): { params: Record<string, string>; query: Record<string, unknown>; body: unknown } {
  const params: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  const named = new Set([...layout.params, ...layout.query]);
  for (const name of layout.params) if (Object.hasOwn(args, name) && args[name] !== null) params[name] = asText(args[name]);
  for (const name of layout.query) if (Object.hasOwn(args, name)) query[name] = asQueryValue(args[name]);
  const rest = (): JsonObject => Object.fromEntries(Object.entries(args).filter(([name]) => !named.has(name)));
  if (layout.restToQuery) for (const [name, value] of Object.entries(rest())) query[name] = asQueryValue(value);
  const { body: shape } = layout;
  let body: unknown;
  if (shape.mode === 'flat') body = rest();
  else if (shape.mode === 'nested') body = args.body;
  else if (shape.mode === 'fields') body = Object.fromEntries(shape.names.filter((name) => Object.hasOwn(args, name)).map((name) => [name, args[name]]));
  return { params, query, body };
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** A query value as a URL carries it: text, a list of texts, or (an object) as it is. */
function asQueryValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asText);
  if (isPlainObject(value)) return value;
  return value === null ? '' : asText(value);
}

function fillPath(path: string, params: Record<string, string>): string {
  return path.replace(/:([A-Za-z0-9_]+)\??/g, (_, name: string) => (Object.hasOwn(params, name) ? encodeURIComponent(params[name]) : ''));
}
