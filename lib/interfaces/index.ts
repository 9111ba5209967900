export type { McpModuleOptions, McpOptionsFactory } from './mcp-module-options.interface.js';
export type * from './handler-metadata.interface.js';
