import { Logger } from '@nestjs/common';
import { InternalError, isMcpError } from '../protocol/mcp.error.js';

const logger = new Logger('McpStore');

/**
 * Runs one store call. When the store fails (say Redis is down) the request gets a generic
 * -32603, the cause is logged here once, and the server keeps serving. A store that refuses a new
 * record (full: -31503; a client holding its share: -31429) is answered as it says: it logged its own
 * rate-limited warning.
 * @internal
 */
export async function callStore<T>(operation: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isMcpError(error)) throw error;
    logger.error(`The MCP store could not ${operation}: ${error instanceof Error ? error.message : String(error)}`);
    throw new InternalError();
  }
}
