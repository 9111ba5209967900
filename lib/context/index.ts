export type * from './mcp-context.interface.js';
