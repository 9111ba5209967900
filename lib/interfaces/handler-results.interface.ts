import type { ContentBlock, JsonObject, PromptMessage } from '../protocol/wire.types.js';

/**
 * A whole result a tool method may return. The wire `CallToolResult` also carries `resultType`, which
 * the module adds, so a method can be annotated with this type and return a plain object literal.
 * @publicApi
 */
export interface McpToolResult {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
  _meta?: JsonObject;
}

/** A whole result a prompt method may return (the wire `GetPromptResult` without `resultType`). @publicApi */
export interface McpPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: JsonObject;
}
