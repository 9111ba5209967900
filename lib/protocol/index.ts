export * from './protocol.constants.js';
export * from './mcp.error.js';
export * from './request-meta.js';
export type * from './wire.types.js';
export * from './json-rpc-envelope.js';
