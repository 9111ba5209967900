import type { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { logSafe, stackForLog } from './log-text.js';
import { InternalError, InvalidRequestError, isMcpError, type McpError } from './mcp.error.js';

/**
 * Logs an unexpected failure once, at error level with its stack, under a fresh reference, and
 * returns the only thing the client sees: a generic message quoting that reference (so a support
 * request finds the log line, while paths, hosts or SQL in the error stay on the server). What it
 * quotes (`what` may name a method or tool, the id and the message may hold a client's text) is made
 * safe for the log first.
 */
export function reportInternalError(logger: Logger, what: string, requestId: unknown, error: unknown): string {
  const ref = randomBytes(8).toString('hex');
  const message = error instanceof Error ? error.message : String(error);
  const line = `${logSafe(what)} failed (request ${logSafe(requestId)}, ref ${ref}): ${logSafe(message, 1000)}`;
  logger.error(line, error instanceof Error ? stackForLog(error) : undefined);
  return `Internal error (ref ${ref})`;
}

/**
 * The error a client is answered with: an McpError as it is, anything else reported and hidden behind
 * InternalError. Once `signal` fired (the client cancelled or went away, or the call timed out), a
 * failure is what stopping did, not a fault: it is logged at debug level, one line without a stack,
 * and answered as cancelled (a client that cancelled is sent nothing anyway).
 */
export function asMcpError(logger: Logger, what: string, requestId: unknown, error: unknown, signal?: AbortSignal): McpError {
  if (isMcpError(error)) return error;
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    const why = reason instanceof Error ? reason.message : String(reason);
    const message = error instanceof Error ? error.message : String(error);
    logger.debug(`${logSafe(what)} (request ${logSafe(requestId)}) stopped after its call ended (${logSafe(why)}): ${logSafe(message)}`);
    return new InvalidRequestError(CANCELLED);
  }
  return new InternalError(reportInternalError(logger, what, requestId, error));
}

/** What a call whose signal fired is answered with, when its failure was not an McpError. */
const CANCELLED = 'The request was cancelled';
