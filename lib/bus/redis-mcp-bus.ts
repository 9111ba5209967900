import { Logger } from '@nestjs/common';
import { DEFAULT_STORE_KEY_PREFIX } from '../mcp.constants.js';
import type { JsonValue } from '../protocol/wire.types.js';
import { openRedis } from '../store/redis-connection.js';
import type { McpBus, McpBusUnsubscribe } from './mcp-bus.js';

/** The commands RedisMcpBus sends on its publishing connection; an `ioredis` client has them. @publicApi */
export interface RedisPublisher {
  publish(channel: string, message: string): Promise<number>;
  quit(): Promise<unknown>;
  disconnect(): void;
}

/** A connection in subscriber mode; an `ioredis` client is one (it subscribes again after a reconnect). @publicApi */
export interface RedisSubscriber {
  subscribe(channel: string): Promise<unknown>;
  unsubscribe(channel: string): Promise<unknown>;
  on(event: 'message', listener: (channel: string, message: string) => void): unknown;
  quit(): Promise<unknown>;
  disconnect(): void;
}

export interface RedisMcpBusOptions {
  /** Put before every channel, so several apps can share one Redis (default `nest-mcp:`, as the store's keys). */
  keyPrefix?: string;
}

/**
 * The bus over Redis pub/sub: a message is one `PUBLISH` on `<prefix>bus:<topic>`, which Redis
 * hands to every connection subscribed to that channel at once, and `PUBLISH` replies how many did.
 * Pub/sub rather than streams: what crosses instances here matters only to someone listening now
 * (a waiting call, a running handler, an open stream), so nothing is stored, trimmed or replayed,
 * and delivery is one hop. Each instance holds two connections (subscriber mode takes one whole).
 * @publicApi
 */
export class RedisMcpBus implements McpBus {
  private readonly prefix: string;
  private readonly handlers = new Map<string, Set<(message: JsonValue) => void>>();
  private readonly logger = new Logger('McpBus');

  /** Wraps clients you manage (two ioredis connections to the same Redis); close() quits both. */
  constructor(
    private readonly publisher: RedisPublisher,
    private readonly subscriber: RedisSubscriber,
    options: RedisMcpBusOptions = {},
  ) {
    this.prefix = `${options.keyPrefix ?? DEFAULT_STORE_KEY_PREFIX}bus:`;
    subscriber.on('message', (channel, text) => this.deliver(channel, text));
  }

  /**
   * Loads ioredis and opens both connections to `url`; fails at start-up when Redis cannot be
   * reached. While Redis is down later, `publish` fails at once, and both connections reconnect by
   * themselves (the subscriber subscribing again to its channels).
   */
  static async connect(url: string, options: RedisMcpBusOptions = {}): Promise<RedisMcpBus> {
    const { client: publisher } = await openRedis(url, 'bus');
    try {
      const { client: subscriber } = await openRedis(url, 'bus');
      return new RedisMcpBus(publisher, subscriber, options);
    } catch (error) {
      publisher.disconnect();
      throw error;
    }
  }

  publish(topic: string, message: JsonValue): Promise<number> {
    return this.publisher.publish(this.prefix + topic, JSON.stringify(message));
  }

  async subscribe(topic: string, handler: (message: JsonValue) => void): Promise<McpBusUnsubscribe> {
    const channel = this.prefix + topic;
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
      try {
        await this.subscriber.subscribe(channel);
      } catch (error) {
        this.handlers.delete(channel);
        throw error;
      }
    }
    const entry = (message: JsonValue) => handler(message);
    handlers.add(entry);
    return async () => {
      handlers.delete(entry);
      if (handlers.size > 0 || this.handlers.get(channel) !== handlers) return;
      this.handlers.delete(channel);
      await this.subscriber.unsubscribe(channel).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    // QUIT waits for pending replies; while Redis is unreachable it cannot be sent: drop the connection then.
    await Promise.all([this.publisher, this.subscriber].map((client) => client.quit().catch(() => client.disconnect())));
  }

  private deliver(channel: string, text: string): void {
    const handlers = this.handlers.get(channel);
    if (!handlers) return;
    let message: JsonValue;
    try {
      message = JSON.parse(text) as JsonValue;
    } catch {
      return this.logger.warn(`A message on ${channel} is not JSON; ignored`);
    }
    for (const handler of handlers) {
      try {
        handler(message);
      } catch (error) {
        this.logger.error(`A handler of bus channel ${channel} failed: ${(error as Error).message}`);
      }
    }
  }
}
