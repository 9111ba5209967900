import { isContentBlock } from './content.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { GetPromptResult, PromptMessage } from '../protocol/wire.types.js';

/**
 * Turns what a prompt method returned into a `GetPromptResult`: a string is one user message; a
 * content block is one user message; an array holds messages (or strings / content blocks, each
 * a user message); an object with `messages` is taken as the result itself.
 */
export function toGetPromptResult(value: unknown): GetPromptResult {
  if (isPlainObject(value) && Array.isArray(value.messages)) {
    return { ...value, resultType: 'complete', messages: value.messages.map(toMessage) };
  }
  const items = Array.isArray(value) ? value : [value];
  return { resultType: 'complete', messages: items.map(toMessage) };
}

function toMessage(item: unknown): PromptMessage {
  if (typeof item === 'string') return { role: 'user', content: { type: 'text', text: item } };
  if (isContentBlock(item)) return { role: 'user', content: item };
  if (isPlainObject(item) && (item.role === 'user' || item.role === 'assistant') && isContentBlock(item.content)) {
    return item as unknown as PromptMessage;
  }
  throw new TypeError('A prompt must return a string, content blocks, messages ({ role, content }) or a GetPromptResult');
}
