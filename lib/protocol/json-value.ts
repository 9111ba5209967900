import type { JsonObject } from './wire.types.js';

/** A JSON object: not null, not an array. The one check every reader of client JSON uses. */
export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
