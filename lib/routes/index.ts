export { McpRouteTools, type RouteMethod } from './route-tools.js';
export { mcpInvocationOf, RouteResponse } from './route-exchange.js';
