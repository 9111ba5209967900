export type { McpModuleOptions, McpOptionsFactory, McpServerCardOptions, McpTelemetryOptions } from './mcp-module-options.interface.js';
export type * from './handler-metadata.interface.js';
export type { McpPromptResult, McpToolResult } from './handler-results.interface.js';
