import { Logger } from '@nestjs/common';
import { DEFAULT_STORE_KEY_PREFIX } from '../mcp.constants.js';
import type { JsonValue } from '../protocol/wire.types.js';
import { requirePositiveTtl } from './in-memory-mcp-store.js';
import { loadIoredis } from './ioredis-loader.js';
import type { McpStore } from './mcp-store.js';

/** The commands RedisMcpStore sends; an `ioredis` client has them. @publicApi */
export interface RedisCommands {
  set(key: string, value: string, millisecondsToken: 'PX', milliseconds: number, nx: 'NX'): Promise<'OK' | null>;
  set(key: string, value: string, millisecondsToken: 'PX', milliseconds: number): Promise<'OK'>;
  get(key: string): Promise<string | null>;
  del(key: string): Promise<number>;
  eval(script: string, numberOfKeys: number, ...keysAndArguments: (string | number)[]): Promise<unknown>;
  quit(): Promise<unknown>;
  disconnect(): void;
}

export interface RedisMcpStoreOptions {
  /** Put before every key, so several apps can share one Redis (default `nest-mcp:`). */
  keyPrefix?: string;
}

// Compare-and-set in one step on the Redis server: KEYS[1], ARGV = expected JSON, next JSON, TTL in ms.
const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

// A request waits at most this long for Redis before it fails with -32603.
const COMMAND_TIMEOUT_MS = 2_000;

/**
 * A store shared by every instance that points at the same Redis: `claimOnce` is `SET key 1 NX PX ttl`,
 * so a requestState used on one instance is refused on all the others; `compareAndSet` is a Lua script.
 * @publicApi
 */
export class RedisMcpStore implements McpStore {
  private readonly keyPrefix: string;

  /** Wraps a client you manage (e.g. `new Redis(url)` from ioredis); close() quits it. */
  constructor(
    private readonly client: RedisCommands,
    options: RedisMcpStoreOptions = {},
  ) {
    this.keyPrefix = options.keyPrefix ?? DEFAULT_STORE_KEY_PREFIX;
  }

  /**
   * Loads ioredis (an optional peer dependency) and connects to `url`; fails at start-up when the
   * package is missing or Redis cannot be reached. While Redis is down later, calls fail fast
   * (no offline queue) and the client keeps reconnecting.
   */
  static async connect(url: string, options: RedisMcpStoreOptions = {}): Promise<RedisMcpStore> {
    const { Redis } = await loadIoredis();
    const where = describeRedisUrl(url);
    const client = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: COMMAND_TIMEOUT_MS,
      // Dropping a connection to an unreachable Redis has nothing to wait for (ioredis waits 2 s).
      disconnectTimeout: 100,
    });
    reportOutages(client, where);
    try {
      await client.connect();
    } catch (error) {
      client.disconnect();
      throw new Error(`Could not connect to Redis at ${where} (mocapi.store.redis-url): ${(error as Error).message}`);
    }
    return new RedisMcpStore(client, options);
  }

  async claimOnce(key: string, ttlMs: number): Promise<boolean> {
    requirePositiveTtl(ttlMs);
    return (await this.client.set(this.keyPrefix + key, 'true', 'PX', Math.ceil(ttlMs), 'NX')) === 'OK';
  }

  async get<T extends JsonValue = JsonValue>(key: string): Promise<T | undefined> {
    const json = await this.client.get(this.keyPrefix + key);
    return json === null ? undefined : (JSON.parse(json) as T);
  }

  async set(key: string, value: JsonValue, ttlMs: number): Promise<void> {
    requirePositiveTtl(ttlMs);
    await this.client.set(this.keyPrefix + key, JSON.stringify(value), 'PX', Math.ceil(ttlMs));
  }

  async create(key: string, value: JsonValue, ttlMs: number): Promise<boolean> {
    requirePositiveTtl(ttlMs);
    return (await this.client.set(this.keyPrefix + key, JSON.stringify(value), 'PX', Math.ceil(ttlMs), 'NX')) === 'OK';
  }

  async compareAndSet(key: string, expected: JsonValue, next: JsonValue, ttlMs: number): Promise<boolean> {
    requirePositiveTtl(ttlMs);
    const written = await this.client.eval(COMPARE_AND_SET, 1, this.keyPrefix + key, JSON.stringify(expected), JSON.stringify(next), Math.ceil(ttlMs));
    return written === 1;
  }

  async delete(key: string): Promise<void> {
    await this.client.del(this.keyPrefix + key);
  }

  async close(): Promise<void> {
    // QUIT waits for pending replies; while Redis is unreachable it cannot be sent, and the client
    // would go on reconnecting (keeping the process alive), so drop the connection instead.
    await this.client.quit().catch(() => this.client.disconnect());
  }
}

/** Scheme, host and port only: the URL may carry a password, which must not reach the logs. */
function describeRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}`;
  } catch {
    return 'the configured URL';
  }
}

/** One log line when the connection drops and one when it is back, not one per reconnect attempt. */
function reportOutages(client: { on(event: string, listener: (error?: Error) => void): unknown }, where: string): void {
  const logger = new Logger('McpStore');
  let down = false;
  client.on('error', (error) => {
    if (down) return;
    down = true;
    logger.error(`Redis at ${where} is unreachable (${error?.message}); store calls fail until it is back`);
  });
  client.on('ready', () => {
    if (down) logger.log(`Redis at ${where} is reachable again`);
    down = false;
  });
}
