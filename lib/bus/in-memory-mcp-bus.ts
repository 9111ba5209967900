import { Logger } from '@nestjs/common';
import type { JsonValue } from '../protocol/wire.types.js';
import type { McpBus, McpBusUnsubscribe } from './mcp-bus.js';

/**
 * The bus of one process (the default without Redis): a message reaches the handlers of this
 * process only, on the next microtask (as a network bus would, never inside `publish`). Two modules
 * of one process given the same instance (`store.bus`) talk through it like two instances.
 * @publicApi
 */
export class InMemoryMcpBus implements McpBus {
  private readonly topics = new Map<string, Set<(message: JsonValue) => void>>();
  private readonly logger = new Logger('McpBus');

  async publish(topic: string, message: JsonValue): Promise<number> {
    const handlers = [...(this.topics.get(topic) ?? [])];
    // A copy per message, as over the wire: no handler sees another's changes to it.
    const text = JSON.stringify(message);
    queueMicrotask(() => {
      for (const handler of handlers) {
        try {
          handler(JSON.parse(text) as JsonValue);
        } catch (error) {
          this.logger.error(`A handler of bus topic ${topic} failed: ${(error as Error).message}`);
        }
      }
    });
    return handlers.length;
  }

  async subscribe(topic: string, handler: (message: JsonValue) => void): Promise<McpBusUnsubscribe> {
    const handlers = this.topics.get(topic) ?? new Set();
    // One entry per subscription, even for the same function twice.
    const entry = (message: JsonValue) => handler(message);
    handlers.add(entry);
    this.topics.set(topic, handlers);
    return async () => {
      handlers.delete(entry);
      if (handlers.size === 0 && this.topics.get(topic) === handlers) this.topics.delete(topic);
    };
  }
}
