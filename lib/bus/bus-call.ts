import { Logger } from '@nestjs/common';
import { isMcpError } from '../protocol/mcp.error.js';
import type { JsonValue } from '../protocol/wire.types.js';
import { BusUnavailableError } from './bus-unavailable.error.js';
import type { McpBus } from './mcp-bus.js';

const logger = new Logger('McpBus');
/** One line per outage, not one per message: the connection logs when Redis goes and comes back. */
let lastLoggedAt = 0;
const LOG_INTERVAL_MS = 10_000;

/**
 * Publishes on the bus for a caller that must know it was sent: a bus that cannot be reached is a
 * BusUnavailableError (-31503, 503), its cause logged at most every 10 s, never a hang (the Redis
 * bus fails at once while disconnected, and after 2 s on a connection that stopped answering).
 * @internal
 */
export async function publishOnBus(bus: McpBus, topic: string, message: JsonValue): Promise<number> {
  try {
    return await bus.publish(topic, message);
  } catch (error) {
    if (isMcpError(error)) throw error;
    const now = Date.now();
    if (now - lastLoggedAt >= LOG_INTERVAL_MS) {
      lastLoggedAt = now;
      logger.warn(`Could not publish on the bus (${topic}): ${error instanceof Error ? error.message : String(error)}`);
    }
    throw new BusUnavailableError();
  }
}

/** Publishes what is worth sending but not worth failing a request for (a cancel, a change): a failure is logged as above. @internal */
export function publishIfPossible(bus: McpBus, topic: string, message: JsonValue): void {
  publishOnBus(bus, topic, message).catch(() => undefined);
}
