import { randomUUID } from 'node:crypto';
import { capabilityNames, McpError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import { JsonRpcErrorCode, META_RESERVED_PREFIX, TASKS_EXTENSION } from '../protocol/protocol.constants.js';
import type { InputRequest, JsonObject, JsonRpcNotification, JsonRpcRequest, Result } from '../protocol/wire.types.js';

/** Result keys of 2026-07-28 that the 2025 revisions do not have. */
const MODERN_RESULT_KEYS = ['resultType', 'ttlMs', 'cacheScope'];

/** What a 2025 client is told when a handler keeps asking questions past the last round a call may have. */
export const LEGACY_ELICITATION_UNAVAILABLE =
  'This request asked the user for input more times than one call over a 2025 session allows; ' +
  'the answers given did not satisfy it';

/**
 * Renders what the handlers produce (2026-07-28 shapes) for a 2025-era client, in the 2025-11-25 schema:
 * no `resultType`, `ttlMs`, `cacheScope` or `io.modelcontextprotocol/*` `_meta` keys; tool output
 * schemas and structured content that are not objects wrapped as `{ result }`. The one place that
 * knows the difference, so handlers and method families stay era-blind.
 */
export function renderLegacyResult(method: string, result: Result): Result {
  return asLegacyWire(render(method, result));
}

/**
 * The wire types are 2026-07-28's, where every result has `resultType`; a 2025 result is the same
 * JSON without it. @internal
 */
export function asLegacyWire(result: JsonObject): Result {
  return result as unknown as Result;
}

function render(method: string, result: Result): JsonObject {
  if (result.resultType === 'input_required') return inputUnavailable(method);
  const rendered: JsonObject = withoutModernKeys(result as unknown as JsonObject);
  if (method === 'tools/list' && Array.isArray(rendered.tools)) {
    rendered.tools = rendered.tools.map((tool) => (isPlainObject(tool) ? renderTool(tool) : tool));
  }
  if (method === 'tools/call' && 'structuredContent' in rendered && !isPlainObject(rendered.structuredContent)) {
    rendered.structuredContent = { result: rendered.structuredContent };
  }
  return rendered;
}

/**
 * A JSON-RPC error for a 2025 client. -32021 (missing client capability) is a 2026-07-28 code; 2025
 * has none for it, so it is sent as -32600 Invalid Request (the request cannot be served in this
 * session as it was initialized), keeping `data.requiredCapabilities`. A tool that runs only as a
 * task gets 2025-11-25's own answer to a call that needed task augmentation (-32600 as well): no
 * declaration of a 2025 session enables it, since the tasks extension is defined from 2026-07-28.
 */
export function asLegacyError(error: McpError): McpError {
  if (error.code !== JsonRpcErrorCode.MissingRequiredClientCapability) return error;
  const data = isPlainObject(error.data) ? error.data : {};
  const required = isPlainObject(data.requiredCapabilities) ? data.requiredCapabilities : {};
  const message = isPlainObject(required.extensions) && TASKS_EXTENSION in required.extensions
    ? `Task augmentation required for tools/call requests: this tool runs only as a task (the ${TASKS_EXTENSION} extension of MCP 2026-07-28), which a 2025 session cannot use`
    : `Invalid Request: this request needs the client capability ${capabilityNames(required)}, which the session did not declare at initialize`;
  return new McpError(JsonRpcErrorCode.InvalidRequest, message, error.data);
}

/** A server→client request on a 2025 call's stream: without 2026 `_meta` keys. */
export function renderLegacyRequest(request: JsonRpcRequest): JsonRpcRequest {
  return isPlainObject(request.params) ? { ...request, params: withoutModernKeys(request.params) } : request;
}

/**
 * The params of one input request as its 2025 server→client request: URL-mode elicitation needs an
 * `elicitationId` in 2025-11-25 (2026-07-28 has none), so one is made up when absent.
 */
export function legacyInputParams(input: InputRequest): JsonObject {
  const params = (input.params ?? {}) as JsonObject;
  if (input.method === 'elicitation/create' && params.mode === 'url' && typeof params.elicitationId !== 'string') {
    return { ...params, elicitationId: randomUUID() };
  }
  return params;
}

/** A notification on a 2025 call's stream: without 2026 `_meta` keys. */
export function renderLegacyNotification(notification: JsonRpcNotification): JsonRpcNotification {
  if (!isPlainObject(notification.params)) return notification;
  return { ...notification, params: withoutModernKeys(notification.params) };
}

function withoutModernKeys(object: JsonObject): JsonObject {
  const copy: JsonObject = { ...object };
  for (const key of MODERN_RESULT_KEYS) delete copy[key];
  if (isPlainObject(copy._meta)) {
    const meta = Object.fromEntries(Object.entries(copy._meta).filter(([key]) => !key.startsWith(META_RESERVED_PREFIX)));
    if (Object.keys(meta).length > 0) copy._meta = meta;
    else delete copy._meta;
  }
  return copy;
}

/** 2025 output schemas must have a root `type: "object"` (the TypeScript SDK's 2025 codec wraps the same way). */
function renderTool(tool: JsonObject): JsonObject {
  const schema = tool.outputSchema;
  if (!isPlainObject(schema) || schema.type === 'object') return tool;
  const { $schema, ...inner } = schema;
  return {
    ...tool,
    outputSchema: { ...($schema !== undefined ? { $schema } : {}), type: 'object', properties: { result: inner }, required: ['result'] },
  };
}

/**
 * A handler asked for input: a tool answers an `isError` result (the model can read it), a prompt or
 * resource a JSON-RPC error, as the TypeScript SDK's 2025 shim answers failed input legs.
 */
function inputUnavailable(method: string): JsonObject {
  if (method === 'tools/call') return { content: [{ type: 'text', text: LEGACY_ELICITATION_UNAVAILABLE }], isError: true };
  throw new McpError(JsonRpcErrorCode.InvalidRequest, LEGACY_ELICITATION_UNAVAILABLE);
}
