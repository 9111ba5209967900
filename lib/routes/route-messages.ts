/** A controller route that cannot be a tool: one line, naming it and why. */
export const ROUTE_REFUSED = (source: string, why: string): string => `@McpTool() on route ${source} is refused: ${why}. A route tool answers with JSON; keep this route REST-only, or give the tool a provider method.`;

/** A route that returned a stream (a file, a Node stream) where a tool result needs JSON. */
export const ROUTE_RETURNED_STREAM = (source: string): string => `Route tool ${source} returned a stream; a tool result needs a JSON value`;

/** `inputSchema` on a route tool: its schema is its parameters'. */
export const ROUTE_SCHEMA_GIVEN = (source: string): string =>
  `@McpTool() on route ${source} names an input schema: a route tool's schema is built from its @Body(), @Param() and @Query() parameters`;
