export type { McpRecordKind, McpRecordLimit, McpRecordScope, McpStore } from './mcp-store.js';
export { InMemoryMcpStore, type InMemoryMcpStoreOptions } from './in-memory-mcp-store.js';
export { RedisMcpStore, type RedisCommands, type RedisMcpStoreOptions } from './redis-mcp-store.js';
export { ClientLimitError, McpStoreErrorCode, StoreFullError, StoreUnavailableError, type McpStoreBudgets } from './store-limits.js';
