export { McpHandlerKind } from './mcp-handler-kind.enum.js';
export { McpParamtype } from './mcp-paramtype.enum.js';
