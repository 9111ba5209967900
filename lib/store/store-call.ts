import { Logger } from '@nestjs/common';
import { InternalError } from '../protocol/mcp.error.js';

const logger = new Logger('McpStore');

/**
 * Runs one store call. When the store fails (say Redis is down) the request gets a generic
 * -32603, the cause is logged here once, and the server keeps serving. @internal
 */
export async function callStore<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    logger.error(`The MCP store could not ${operation}: ${error instanceof Error ? error.message : String(error)}`);
    throw new InternalError();
  }
}
