import type { McpToolResult } from '../interfaces/handler-results.interface.js';
import type { ContentBlock } from '../protocol/wire.types.js';
import { isAnnotations } from './annotations.js';
import { isPlainObject } from '../protocol/json-value.js';

type Fields = Record<string, unknown>;

function optional(value: unknown, check: (v: unknown) => boolean): boolean {
  return value === undefined || check(value);
}

const isString = (v: unknown): boolean => typeof v === 'string';

/** Fields every block may carry. */
function hasValidCommon(block: Fields): boolean {
  return optional(block.annotations, isAnnotations) && optional(block._meta, isPlainObject);
}

function isResourceContents(value: unknown): boolean {
  if (!isPlainObject(value) || typeof value.uri !== 'string' || !optional(value.mimeType, isString) || !optional(value._meta, isPlainObject)) {
    return false;
  }
  // Exactly one of text/blob: a block with both is ambiguous to a client.
  return (typeof value.text === 'string') !== (typeof value.blob === 'string') && (value.text === undefined || value.blob === undefined);
}

function isIcon(value: unknown): boolean {
  return isPlainObject(value) && typeof value.src === 'string';
}

/**
 * True when `value` is a well-formed content block of one of the five kinds (text, image, audio,
 * resource_link, resource), with the fields its `type` requires and optional fields of the right types.
 * @publicApi
 */
export function isContentBlock(value: unknown): value is ContentBlock {
  if (!isPlainObject(value) || !hasValidCommon(value)) return false;
  switch (value.type) {
    case 'text':
      return typeof value.text === 'string';
    case 'image':
    case 'audio':
      return typeof value.data === 'string' && typeof value.mimeType === 'string';
    case 'resource_link':
      return (
        typeof value.uri === 'string' &&
        typeof value.name === 'string' &&
        optional(value.title, isString) &&
        optional(value.description, isString) &&
        optional(value.mimeType, isString) &&
        optional(value.size, (v) => Number.isSafeInteger(v) && (v as number) >= 0) &&
        optional(value.icons, (v) => Array.isArray(v) && v.every(isIcon))
      );
    case 'resource':
      return isResourceContents(value.resource);
    default:
      return false;
  }
}

/**
 * True when `value` looks like a tool result a handler built itself: an object whose `content` is an
 * array of content blocks (and whose `isError`, if present, is a boolean). `resultType` is not required,
 * since the framework adds it.
 * @publicApi
 */
export function isCallToolResultLike(value: unknown): value is McpToolResult & { resultType?: string } {
  return (
    isPlainObject(value) &&
    Array.isArray(value.content) &&
    value.content.every(isContentBlock) &&
    optional(value.isError, (v) => typeof v === 'boolean')
  );
}
