export type * from './mcp-context.interface.js';
export { McpExecutionContext, type McpContextType } from './mcp-execution-context.js';
