import type { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { InternalError, isMcpError, type McpError } from './mcp.error.js';

/**
 * Logs an unexpected failure once, at error level with its stack, under a fresh reference, and
 * returns the only thing the client sees: a generic message quoting that reference (so a support
 * request finds the log line, while paths, hosts or SQL in the error stay on the server).
 */
export function reportInternalError(logger: Logger, what: string, requestId: unknown, error: unknown): string {
  const ref = randomBytes(8).toString('hex');
  const message = error instanceof Error ? error.message : String(error);
  logger.error(`${what} failed (request ${String(requestId)}, ref ${ref}): ${message}`, error instanceof Error ? error.stack : undefined);
  return `Internal error (ref ${ref})`;
}

/** The error a client is answered with: an McpError as it is, anything else reported and hidden behind InternalError. */
export function asMcpError(logger: Logger, what: string, requestId: unknown, error: unknown): McpError {
  return isMcpError(error) ? error : new InternalError(reportInternalError(logger, what, requestId, error));
}
