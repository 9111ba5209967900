import type { Annotations } from '../protocol/wire.types.js';

/** Who a content block is meant for. @publicApi */
export type ContentAudience = 'user' | 'assistant';

/** Annotations as accepted by the helpers: like the wire type, but `lastModified` may be a `Date`. @publicApi */
export interface AnnotationsInput {
  audience?: readonly ContentAudience[];
  /** 0 = entirely optional, 1 = effectively required. */
  priority?: number;
  /** An ISO 8601 timestamp, or a `Date` (serialized with `toISOString()`). */
  lastModified?: string | Date;
}

const AUDIENCES: readonly string[] = ['user', 'assistant'];

/**
 * Checks and copies annotations; returns `undefined` when nothing is set so blocks stay minimal.
 * Throws `TypeError` for wrong types and `RangeError` for a priority outside [0, 1].
 */
export function normalizeAnnotations(input: AnnotationsInput | undefined): Annotations | undefined {
  if (input === undefined) return undefined;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError('Annotations must be an object');
  }
  const annotations: Annotations = {};
  if (input.audience !== undefined) {
    if (!Array.isArray(input.audience)) throw new TypeError('annotations.audience must be an array');
    for (const role of input.audience) {
      if (!AUDIENCES.includes(role)) {
        throw new TypeError(`annotations.audience entries must be "user" or "assistant", got ${JSON.stringify(role)}`);
      }
    }
    annotations.audience = [...new Set(input.audience)];
  }
  if (input.priority !== undefined) {
    if (typeof input.priority !== 'number' || !Number.isFinite(input.priority) || input.priority < 0 || input.priority > 1) {
      throw new RangeError(`annotations.priority must be a number in [0, 1], got ${String(input.priority)}`);
    }
    annotations.priority = input.priority;
  }
  if (input.lastModified !== undefined) {
    annotations.lastModified = normalizeTimestamp(input.lastModified);
  }
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

function normalizeTimestamp(value: string | Date): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError('annotations.lastModified is an invalid Date');
    return value.toISOString();
  }
  // Date.parse is a light ISO 8601 check: it catches free text without pulling in a date library.
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) {
    throw new TypeError(`annotations.lastModified must be an ISO 8601 timestamp, got ${JSON.stringify(value)}`);
  }
  return value;
}

/** True when `value` has the wire shape of `Annotations` (used by the guards; never throws). */
export function isAnnotations(value: unknown): value is Annotations {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { audience, priority, lastModified } = value as Record<string, unknown>;
  if (audience !== undefined && !(Array.isArray(audience) && audience.every((role) => AUDIENCES.includes(role as string)))) {
    return false;
  }
  if (priority !== undefined && !(typeof priority === 'number' && priority >= 0 && priority <= 1)) return false;
  return lastModified === undefined || typeof lastModified === 'string';
}
