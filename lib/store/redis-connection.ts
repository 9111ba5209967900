import { Logger } from '@nestjs/common';
import { loadIoredis } from './ioredis-loader.js';

/** A request waits at most this long for Redis before it fails. */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;
/** The longest pause between two attempts to reach Redis again. */
const RECONNECT_AT_MOST_MS = 500;

/** An ioredis client as `openRedis` returns it. @internal */
export type IoredisClient = InstanceType<Awaited<ReturnType<typeof loadIoredis>>['Redis']>;

/**
 * A connected ioredis client for `url` (the store's commands, or one side of the bus): it fails at
 * start-up when the package is missing or Redis cannot be reached; later, while Redis is down,
 * commands fail at once (no offline queue) and the client keeps reconnecting by itself, logging
 * one line when Redis goes away and one when it is back. `role` names the connection in those lines.
 * @internal
 */
export async function openRedis(url: string, role: string): Promise<{ client: IoredisClient; where: string }> {
  const { Redis } = await loadIoredis();
  const where = describeRedisUrl(url);
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails instead of being sent again once it is back:
    // the Redis that answers then may be another one (restarted, failed over) that forgot what was checked.
    autoResendUnfulfilledCommands: false,
    maxRetriesPerRequest: 1,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // Dropping a connection to an unreachable Redis has nothing to wait for (ioredis waits 2 s).
    disconnectTimeout: 100,
    // Retry every half second at most (ioredis backs off to 2 s): a restarted Redis is found within 0.5 s.
    retryStrategy: (attempt: number) => Math.min(attempt * 50, RECONNECT_AT_MOST_MS),
  });
  reportOutages(client, where, role);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new Error(`Could not connect to Redis at ${where} (mocapi.store.redis-url): ${(error as Error).message}`);
  }
  return { client, where };
}

/** Scheme, host and port only: the URL may carry a password, which must not reach the logs. */
export function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'the configured URL';
  }
}

/** One log line when the connection drops and one when it is back, not one per reconnect attempt. */
function reportOutages(client: { on(event: string, listener: (error?: Error) => void): unknown }, where: string, role: string): void {
  const logger = new Logger(role === 'store' ? 'McpStore' : 'McpBus');
  let down = false;
  client.on('error', (error) => {
    if (down) return;
    down = true;
    logger.error(`Redis at ${where} is unreachable (${error?.message}); ${role} calls fail until it is back`);
  });
  client.on('ready', () => {
    if (down) logger.log(`Redis at ${where} is reachable again`);
    down = false;
  });
}
