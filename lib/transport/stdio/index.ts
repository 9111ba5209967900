export { bootstrapStdio, type McpStdioServer, type StdioBootstrapOptions } from './bootstrap-stdio.js';
export { McpStdioTransport } from './mcp-stdio.transport.js';
export { StderrConsoleLogger } from './stderr-console.logger.js';
