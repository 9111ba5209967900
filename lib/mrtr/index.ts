export * from './fingerprint.util.js';
export * from './request-state.codec.js';
export * from './request-state.key.js';
export * from './input-required.signal.js';
export * from './input-rounds.js';
export * from './task-rounds.js';
export * from './task-start.signal.js';
export * from './sealed-box.js';
