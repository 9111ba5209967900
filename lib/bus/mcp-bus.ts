import type { JsonValue } from '../protocol/wire.types.js';

/** Stops a subscription: its handler gets no more messages. @publicApi */
export type McpBusUnsubscribe = () => Promise<void>;

/**
 * What the instances of one server tell each other, live: a 2025 answer for the call that awaits it,
 * a change for every listener, a cancel for the running handler. Beside `McpStore`, which keeps what
 * must outlive a request, the bus carries what only matters to someone listening now: a message
 * published while an instance is not subscribed is not kept for it.
 *
 * Each instance subscribes once per topic; a message reaches every subscribed instance once, the
 * publisher's own included (handlers skip their own messages where they act locally first).
 * @publicApi
 */
export interface McpBus {
  /**
   * Sends `message` to the subscribers of `topic` on every instance sharing the bus, this one
   * included. Resolves with how many subscribers received it (0: nobody listens); rejects when the
   * bus cannot be reached (the module answers that as `BusUnavailableError`).
   */
  publish(topic: string, message: JsonValue): Promise<number>;
  /**
   * Calls `handler` with each message later published on `topic`, by any instance. Resolves once
   * subscribed: a message published after that reaches it.
   */
  subscribe(topic: string, handler: (message: JsonValue) => void): Promise<McpBusUnsubscribe>;
  /** Releases connections. The module calls it at shutdown for the bus it opened itself. */
  close?(): Promise<void>;
}
