import { McpError } from '../protocol/mcp.error.js';

/** How long a client is told to wait before retrying while the bus is unreachable. */
const RETRY_AFTER_MS = 1_000;

/**
 * The instances' shared bus (Redis) cannot be reached, so what needs another instance (an answer
 * for a call held elsewhere) cannot be done now: -31503, HTTP 503 with `Retry-After`. Calls that need
 * no other instance keep working meanwhile, and the bus reconnects by itself.
 * @publicApi
 */
export class BusUnavailableError extends McpError {
  constructor() {
    super(-31503, "Service Unavailable: the instances' shared bus (Redis) is unreachable; retry later", { retryAfterMs: RETRY_AFTER_MS }, 503);
  }
}
