import 'reflect-metadata';
import { bootstrapStdio, McpConfigurationError } from 'nest-mcp';
import { AppModule } from './app.module.js';

/**
 * The sample as a local MCP server for desktop clients: the client starts this process and talks
 * JSON-RPC over stdin/stdout; logs go to stderr. Started through main-stdio.ts.
 */
bootstrapStdio(AppModule).catch((error: unknown) => {
  // stdout is reserved for the protocol, so a failed start is reported on stderr. Nest has logged a
  // setting it could not start with already, as one line naming it.
  if (!(error instanceof McpConfigurationError)) {
    process.stderr.write(`Failed to start the MCP stdio server: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
