import { instanceToPlain } from 'class-transformer';
import { isCallToolResultLike, isContentBlock } from './content.js';
import type { CallToolResult, ContentBlock } from '../protocol/wire.types.js';

/**
 * Turns what a tool method returned into a `CallToolResult`:
 * nothing → empty content; a string → one text block; a content block (or an array of them) →
 * those blocks; a `CallToolResult` → as is; anything else → `structuredContent` plus the same
 * JSON as a text block, for clients that read only `content`.
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (value === undefined || value === null) return { resultType: 'complete', content: [] };
  if (typeof value === 'string') return { resultType: 'complete', content: [{ type: 'text', text: value }] };
  if (isCallToolResultLike(value)) return { ...(value as CallToolResult), resultType: 'complete' };
  if (isContentBlock(value)) return { resultType: 'complete', content: [value] };
  if (Array.isArray(value) && value.length > 0 && value.every(isContentBlock)) {
    return { resultType: 'complete', content: value as ContentBlock[] };
  }
  // class-transformer honours @Exclude/@Expose on returned DTO instances.
  const structured = typeof value === 'object' ? instanceToPlain(value) : value;
  return {
    resultType: 'complete',
    content: [{ type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
}

/** A tool execution error: the model sees the message and can correct itself. */
export function toolErrorResult(message: string): CallToolResult {
  return { resultType: 'complete', content: [{ type: 'text', text: message }], isError: true };
}
