import type { McpArgOptions } from '../interfaces/handler-metadata.interface.js';
import { McpParamtype } from '../interfaces/mcp-paramtype.enum.js';

/** One decorated parameter of a handler method. */
export interface McpParamMetadata {
  index: number;
  type: number;
  data: unknown;
}

/**
 * What the scanner read about one handler method: everything the definition factory needs, as
 * plain data, so that the factory never reflects (nor writes) metadata itself. @internal
 */
export interface HandlerMethod {
  /** `Class.method()`, for start-up messages. */
  source: string;
  params: readonly McpParamMetadata[];
  argOptions: Readonly<Record<number, McpArgOptions>>;
  paramTypes: readonly unknown[];
  returnType?: unknown;
}

/**
 * The data of the arguments parameter a resource handler gets by the positional convention: the URI
 * read together with the template's variables, `{ uri, ...variables }`, as `@rekog/mcp-nest` hands them.
 */
export const RESOURCE_ARGUMENTS = 'mcp:resource-arguments';

/** Nest's `RouteParamtypes.REQUEST` (`@Req()`); the enum itself is internal to @nestjs/common. */
export const NEST_REQUEST_PARAMTYPE = 0;

const FILLED_BY_MCP = new Set<number>([
  McpParamtype.ARGS,
  McpParamtype.ARG,
  McpParamtype.CONTEXT,
  McpParamtype.ELICITOR,
  McpParamtype.REQUEST,
  NEST_REQUEST_PARAMTYPE,
]);

/**
 * True when Nest will ask the MCP params factory for at least one parameter: that extraction is
 * where the call pipeline checks the arguments (after guards, inside interceptors).
 */
export function extractsMcpParameters(params: readonly McpParamMetadata[]): boolean {
  return params.some((param) => FILLED_BY_MCP.has(param.type));
}
