import type { INestApplication } from '@nestjs/common';
import {
  LEGACY_PROTOCOL_VERSIONS,
  META_CLIENT_CAPABILITIES,
  META_CLIENT_INFO,
  META_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../protocol/protocol.constants.js';
import { encodeHeaderValue, MCP_NAME_FIELDS } from '../protocol/mcp-headers.js';
import type {
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  GetPromptResult,
  Implementation,
  InputRequest,
  InputRequiredResult,
  JsonObject,
  JsonRpcNotification,
  JsonRpcRequest,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PaginatedResult,
  ProgressNotificationParams,
  Prompt,
  PromptReference,
  ReadResourceResult,
  ResourceDescriptor,
  ResourceTemplateDescriptor,
  ResourceTemplateReference,
  Result,
  Tool,
} from '../protocol/wire.types.js';
import { exchange, mirroredHeaders } from './http-exchange.js';
import { answererFor, answerRound, type InputAnswerer, type InputAnswers } from './input-answers.js';

/** Which generation of the protocol the client speaks. */
export type McpTestEra = 'modern' | 'legacy';

export interface McpTestClientOptions {
  /**
   * `'modern'` (default): 2026-07-28, every request self-contained. `'legacy'`: a 2025 client
   * (`initialize`, then requests in its `Mcp-Session-Id` session); its questions are answered by POSTed responses.
   */
  era?: McpTestEra;
  /** The revision to speak; default 2026-07-28, or 2025-11-25 in the legacy era. */
  protocolVersion?: string;
  /** The capabilities the client declares; default: form and URL elicitation. */
  capabilities?: ClientCapabilities;
  clientInfo?: Implementation;
  /** Headers sent with every request, e.g. `{ authorization: 'Bearer …' }`. */
  headers?: Record<string, string>;
  /** The endpoint path; default: the `endpoint` of the app's McpModule (`/mcp`). */
  path?: string;
  /** Rounds of `input_required` one call may take before the client gives up; default 10. */
  maxInputRounds?: number;
}

export interface McpRequestOptions {
  /** Called with each `notifications/progress` of the call, as it arrives (a progress token is sent). */
  onProgress?: (progress: ProgressNotificationParams) => void;
  /** Called with every notification on the call's stream, progress included. */
  onNotification?: (notification: JsonRpcNotification) => void;
  /**
   * Answers the server's questions (`input_required`): a function, or a script of answers taken in
   * order, e.g. `[{ action: 'accept', content: { plan: 'pro' } }, { action: 'decline' }]`. The client
   * sends them back with the `requestState` until the call completes, so a multi-round call is one call
   * (in the legacy era it answers the server's `elicitation/create` requests on the stream instead).
   */
  answer?: InputAnswers;
  /** Aborting closes the response stream, which cancels the call on the server. */
  signal?: AbortSignal;
  /** Extra `_meta` entries of the request. */
  meta?: JsonObject;
  /** Capabilities for this call instead of the client's (modern era). */
  capabilities?: ClientCapabilities;
  headers?: Record<string, string>;
}

/** Everything the client was connected with. @internal */
export interface McpTestConnection {
  app: INestApplication;
  url: string;
  /** Stops what the testing kit started (the app it created); nothing for an app the test owns. */
  release(): Promise<void>;
}

let nextProgressToken = 1;

/**
 * A typed MCP client for tests, connected to one Nest app over loopback HTTP: lists, calls with
 * progress and scripted answers to elicitation, prompts, resources and completions. Made by
 * `McpTest.createClient()`. Errors the server answers are thrown as McpClientError.
 * @publicApi
 */
export class McpTestClient {
  readonly era: McpTestEra;
  private version: string;
  private nextId = 1;
  private sessionId?: string;
  private toolHeaders?: Map<string, Map<string, string>>;

  /** @internal */
  constructor(
    private readonly connection: McpTestConnection,
    private readonly options: McpTestClientOptions = {},
  ) {
    this.era = options.era ?? 'modern';
    this.version = options.protocolVersion ?? (this.era === 'modern' ? SUPPORTED_PROTOCOL_VERSIONS[0] : LEGACY_PROTOCOL_VERSIONS[0]);
  }

  /** The revision the client speaks (in the legacy era: the one `initialize` negotiated). */
  get protocolVersion(): string {
    return this.version;
  }

  /** The application under test (e.g. `client.app.get(MyService)`). */
  get app(): INestApplication {
    return this.connection.app;
  }

  /** The MCP endpoint, e.g. `http://127.0.0.1:41234/mcp`. */
  get url(): string {
    return this.connection.url;
  }

  /** Every tool, all pages followed. */
  async listTools(options?: McpRequestOptions): Promise<Tool[]> {
    const tools = await this.listAll<ListToolsResult, Tool>('tools/list', 'tools', options);
    this.toolHeaders = new Map(tools.map((tool) => [tool.name, mirroredHeaders(tool.inputSchema)]));
    return tools;
  }

  /** Calls a tool; a tool's own failure is a result with `isError: true`, not an exception. */
  async callTool(name: string, args: object = {}, options: McpRequestOptions = {}): Promise<CallToolResult> {
    // `object`, not JsonObject: an interface-typed value (a DTO) has no index signature, yet is valid arguments.
    const headers = { ...(await this.paramHeaders(name, args as JsonObject)), ...options.headers };
    return this.request<CallToolResult>('tools/call', { name, arguments: args }, { ...options, headers });
  }

  listPrompts(options?: McpRequestOptions): Promise<Prompt[]> {
    return this.listAll<ListPromptsResult, Prompt>('prompts/list', 'prompts', options);
  }

  getPrompt(name: string, args: Record<string, string> = {}, options?: McpRequestOptions): Promise<GetPromptResult> {
    return this.request<GetPromptResult>('prompts/get', { name, arguments: args }, options);
  }

  listResources(options?: McpRequestOptions): Promise<ResourceDescriptor[]> {
    return this.listAll<ListResourcesResult, ResourceDescriptor>('resources/list', 'resources', options);
  }

  listResourceTemplates(options?: McpRequestOptions): Promise<ResourceTemplateDescriptor[]> {
    return this.listAll<ListResourceTemplatesResult, ResourceTemplateDescriptor>('resources/templates/list', 'resourceTemplates', options);
  }

  readResource(uri: string, options?: McpRequestOptions): Promise<ReadResourceResult> {
    return this.request<ReadResourceResult>('resources/read', { uri }, options);
  }

  /** `completion/complete` for a prompt argument or a resource template variable. */
  complete(
    ref: PromptReference | ResourceTemplateReference,
    argument: { name: string; value: string },
    context?: Record<string, string>,
    options?: McpRequestOptions,
  ): Promise<CompleteResult> {
    return this.request<CompleteResult>('completion/complete', { ref, argument, ...(context ? { context: { arguments: context } } : {}) }, options);
  }

  /**
   * Any request, with the envelope of the client's era. In the modern era an `input_required`
   * result is answered with `options.answer` and retried until the server completes it.
   */
  async request<T extends Result = Result>(method: string, params: JsonObject = {}, options: McpRequestOptions = {}): Promise<T> {
    const answerer = answererFor(options.answer, method === 'tools/call' || method === 'prompts/get' ? `${method} "${params.name}"` : method);
    if (this.era === 'legacy') return (await this.send(method, params, options, answerer)) as T;
    const maxRounds = this.options.maxInputRounds ?? 10;
    let retry: JsonObject = {};
    for (let round = 1; ; round++) {
      const result = await this.send(method, { ...params, ...retry }, options);
      if (result.resultType !== 'input_required') return result as T;
      if (round > maxRounds) throw new Error(`${method}: still input_required after ${maxRounds} rounds (maxInputRounds)`);
      const { inputRequests, requestState } = result as InputRequiredResult;
      retry = {
        inputResponses: await answerRound(inputRequests ?? {}, answerer),
        ...(requestState !== undefined ? { requestState } : {}),
      };
    }
  }

  /** Ends the 2025 session (if any) and stops the app if the kit started it. */
  async close(): Promise<void> {
    try {
      if (this.sessionId !== undefined) {
        await fetch(this.url, { method: 'DELETE', headers: { ...this.sessionHeaders(), ...this.options.headers } })
          .then((response) => response.arrayBuffer())
          .catch(() => undefined);
        this.sessionId = undefined;
      }
    } finally {
      await this.connection.release();
    }
  }

  /** @internal Opens the 2025 session: `initialize`, then `notifications/initialized`. */
  async initialize(): Promise<void> {
    const request: JsonRpcRequest = {
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: { protocolVersion: this.protocolVersion, capabilities: this.capabilities(), clientInfo: this.clientInfo() },
    };
    const answer = await exchange(this.url, request, { ...this.baseHeaders(), ...this.options.headers });
    this.sessionId = answer.headers.get('mcp-session-id') ?? undefined;
    if (this.sessionId === undefined) throw new Error('initialize: the server answered without an Mcp-Session-Id');
    if (typeof answer.result.protocolVersion === 'string') this.version = answer.result.protocolVersion;
    await this.postAccepted({ jsonrpc: '2.0', method: 'notifications/initialized' }, (status) => `notifications/initialized: HTTP ${status}, expected 202`);
  }

  /** POSTs a notification or a response in the 2025 session, which the server takes with 202 and no body. */
  private async postAccepted(message: JsonObject, refused: (status: number) => string): Promise<void> {
    const posted = await fetch(this.url, {
      method: 'POST',
      headers: { ...this.sessionHeaders(), ...this.options.headers },
      body: JSON.stringify(message),
    });
    await posted.arrayBuffer();
    if (posted.status !== 202) throw new Error(refused(posted.status));
  }

  private async send(method: string, params: JsonObject, options: McpRequestOptions, answerer?: InputAnswerer): Promise<Result> {
    const progressToken = options.onProgress ? `progress-${nextProgressToken++}` : undefined;
    const meta: JsonObject = { ...(progressToken !== undefined ? { progressToken } : {}), ...options.meta };
    const inSession = this.era === 'legacy';
    const request: JsonRpcRequest = {
      jsonrpc: '2.0',
      id: this.nextId++,
      method,
      params: inSession ? { ...params, ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}) } : { ...params, _meta: { ...this.envelope(options), ...meta } },
    };
    const headers = { ...(inSession ? this.sessionHeaders() : this.modernHeaders(method, params)), ...this.options.headers, ...options.headers };
    const { result } = await exchange(this.url, request, headers, {
      signal: options.signal,
      onNotification: (notification) => {
        const progress = notification.params as ProgressNotificationParams | undefined;
        if (notification.method === 'notifications/progress' && progress?.progressToken === progressToken) options.onProgress?.(progress!);
        options.onNotification?.(notification);
      },
      // The 2025 era asks its questions as server-to-client requests on the call's stream; each answer
      // is a JSON-RPC response POSTed in the session, and the stream goes on to the call's result.
      onServerRequest: async (serverRequest) => {
        if (!inSession || !answerer) throw new Error(`${method}: the server sent a ${serverRequest.method} request outside a 2025 session`);
        const answer = await answerer(serverRequest as unknown as InputRequest, String(serverRequest.id));
        await this.postAccepted(
          { jsonrpc: '2.0', id: serverRequest.id, result: answer },
          (status) => `${method}: the answer to ${serverRequest.method} was refused with HTTP ${status}`,
        );
      },
    });
    return result;
  }

  private async listAll<R extends PaginatedResult, T>(method: string, field: keyof R & string, options?: McpRequestOptions): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.request<R>(method, cursor !== undefined ? { cursor } : {}, options);
      items.push(...((page[field] as T[] | undefined) ?? []));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return items;
  }

  /** `Mcp-Param-*` for the tool's `x-mcp-header` arguments (modern era); the tool list is read once. */
  private async paramHeaders(name: string, args: JsonObject): Promise<Record<string, string>> {
    if (this.era === 'legacy') return {};
    if (!this.toolHeaders?.has(name)) await this.listTools();
    const headers: Record<string, string> = {};
    for (const [property, suffix] of this.toolHeaders?.get(name) ?? []) {
      const value = args[property];
      if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') headers[`mcp-param-${suffix.toLowerCase()}`] = encodeHeaderValue(String(value));
    }
    return headers;
  }

  private envelope(options: McpRequestOptions): JsonObject {
    return {
      [META_PROTOCOL_VERSION]: this.protocolVersion,
      [META_CLIENT_CAPABILITIES]: options.capabilities ?? this.capabilities(),
      [META_CLIENT_INFO]: this.clientInfo(),
    };
  }

  private capabilities(): ClientCapabilities {
    return this.options.capabilities ?? { elicitation: { form: {}, url: {} } };
  }

  private clientInfo(): Implementation {
    return this.options.clientInfo ?? { name: 'nest-mcp-testing', version: '1.0.0' };
  }

  private baseHeaders(): Record<string, string> {
    return { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  }

  private modernHeaders(method: string, params: JsonObject): Record<string, string> {
    const headers: Record<string, string> = { ...this.baseHeaders(), 'mcp-protocol-version': this.protocolVersion, 'mcp-method': method };
    const field = MCP_NAME_FIELDS.get(method);
    const name = field !== undefined ? params[field] : undefined;
    if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
    return headers;
  }

  private sessionHeaders(): Record<string, string> {
    return { ...this.baseHeaders(), 'mcp-protocol-version': this.protocolVersion, ...(this.sessionId !== undefined ? { 'mcp-session-id': this.sessionId } : {}) };
  }
}
