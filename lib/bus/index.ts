export type { McpBus, McpBusUnsubscribe } from './mcp-bus.js';
export { InMemoryMcpBus } from './in-memory-mcp-bus.js';
export { RedisMcpBus, type RedisMcpBusOptions, type RedisPublisher, type RedisSubscriber } from './redis-mcp-bus.js';
export { BusUnavailableError } from './bus-unavailable.error.js';
