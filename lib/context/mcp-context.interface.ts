import type { McpAuthInfo } from '../auth/mcp-auth.interfaces.js';
import type { ElicitResult } from '../elicitation/elicit-result.js';
import type { ElicitationSchemaBuilder } from '../elicitation/elicitation-schema.builder.js';
import type { McpSchemaOutput, McpStandardSchema } from '../schema/standard-schema.js';
import type { ProgressSource } from '../progress/index.js';
import type {
  ClientCapabilities,
  ElicitRequestFormParams,
  Implementation,
  InputRequests,
  InputResponses,
  JsonObject,
  RequestId,
} from '../protocol/wire.types.js';

/** A form for `elicit()`: a builder callback or a ready `requestedSchema`. @publicApi */
export type ElicitationForm =
  | ((schema: ElicitationSchemaBuilder) => ElicitationSchemaBuilder)
  | ElicitRequestFormParams['requestedSchema'];

/** @publicApi */
export interface ElicitOptions {
  /** The `inputRequests` key; defaults to `elicitation-<position>`. */
  key?: string;
}

/**
 * Asks the user for input by multi round-trip requests. The first unanswered question ends the
 * handler run; the client retries with the answer and the handler runs again from the top, where
 * answered questions return at once. Keep code before the last `elicit()` idempotent.
 * @publicApi
 */
export interface McpElicitor {
  /**
   * Asks with a form given as a Standard Schema (Zod, ArkType, Valibot's `toStandardJsonSchema()`): an
   * object schema of strings, numbers, booleans and enums. An accepted answer is checked by the
   * schema's own `validate`, and `content` is its output, typed from the schema.
   */
  elicit<S extends McpStandardSchema>(message: string, schema: S, options?: ElicitOptions): Promise<ElicitResult<McpSchemaOutput<S> & object>>;
  /** Asks with a form; resolves with the user's answer (accept, decline or cancel). */
  elicit(message: string, form: ElicitationForm, options?: ElicitOptions): Promise<ElicitResult>;
  /** Asks the user to open a URL (URL mode); `accept` means the user agreed to open it. */
  elicitUrl(message: string, url: string, options?: ElicitOptions): Promise<ElicitResult>;
  /**
   * The general primitive: asks for several inputs in one round, any kind the protocol defines
   * (`elicitation/create`, and the deprecated `sampling/createMessage` and `roots/list`). Each
   * kind's client capability is checked (-32021 when missing).
   */
  requestInputs(requests: InputRequests): Promise<InputResponses>;
}

/**
 * Progress in one call, as `@rekog/mcp-nest`'s `Context.reportProgress` takes it (and as a
 * `notifications/progress` carries it). The same rules as the emitters of `ProgressSource`: each value
 * greater than the last one sent for the request, none above its total.
 * @publicApi
 */
export interface McpProgressReporter {
  reportProgress(progress: { progress: number; total?: number; message?: string }): Promise<void>;
}

/** What every handler context tells about the request. @publicApi */
export interface McpRequestInfo {
  readonly requestId: RequestId;
  readonly protocolVersion: string;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities;
  /** The request's whole `_meta` (trace context, extensions). */
  readonly meta: JsonObject;
  /** Fires when the client goes away or cancels the request. */
  readonly signal: AbortSignal;
  /** The verified bearer token when the module's `auth` is configured (HTTP), else `undefined`. */
  readonly auth: McpAuthInfo | undefined;
  /**
   * The key of the 2025-era session the request belongs to; `undefined` for 2026-07-28 requests,
   * which have no session. Per-session state may be keyed by it; it is not a credential.
   */
  readonly sessionId: string | undefined;
  /**
   * Low-level: sends a JSON-RPC notification on this request's own response stream, ahead of its
   * result (as the client sees it, unchanged but for the era's rendering). For protocol messages this
   * module has no helper for, e.g. `notifications/message` (MCP logging) in a conformance fixture;
   * progress has its own API. Does nothing once the request is answered.
   */
  sendNotification(method: string, params?: JsonObject): void;
}

/** @publicApi */
export interface McpToolContext extends McpElicitor, ProgressSource, McpProgressReporter, McpRequestInfo {
  readonly toolName: string;
  /**
   * For a tool with `taskStart: 'explicit'` called by a client with the tasks extension: ends the
   * part of the handler that runs within the `tools/call` (its questions are ordinary input_required
   * rounds) and answers the call with the task; the task replays the handler from the top, the
   * answered questions returning at once, and this call then does nothing. Elsewhere it does nothing.
   */
  startTask(): Promise<void>;
}

/** @publicApi */
export interface McpPromptContext extends McpElicitor, ProgressSource, McpProgressReporter, McpRequestInfo {
  readonly promptName: string;
}

/** @publicApi */
export interface McpResourceContext extends McpElicitor, ProgressSource, McpProgressReporter, McpRequestInfo {
  readonly uri: string;
}
