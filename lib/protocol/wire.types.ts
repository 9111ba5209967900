/**
 * Wire types of MCP 2026-07-28 that the server produces or reads, written after
 * `schema.json` of that revision. Only what a server needs; open objects stay open.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: unknown };

// ── JSON-RPC ────────────────────────────────────────────────────────────────────────────────
export type RequestId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcResultResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: Result;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  id?: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResultResponse | JsonRpcErrorResponse;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

// ── Common ──────────────────────────────────────────────────────────────────────────────────
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
}

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export interface ClientCapabilities {
  experimental?: Record<string, JsonObject>;
  roots?: JsonObject;
  sampling?: JsonObject;
  elicitation?: { form?: JsonObject; url?: JsonObject } & JsonObject;
  extensions?: Record<string, JsonObject>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  experimental?: Record<string, JsonObject>;
  completions?: JsonObject;
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  tools?: { listChanged?: boolean };
  extensions?: Record<string, JsonObject>;
}

export type ResultType = 'complete' | 'input_required';
export type CacheScope = 'public' | 'private';

export interface Result {
  resultType: ResultType | string;
  _meta?: JsonObject;
  [key: string]: unknown;
}

export interface CacheHints {
  ttlMs: number;
  cacheScope: CacheScope;
}

export interface PaginatedResult extends Result {
  nextCursor?: string;
}

export type ProgressToken = string | number;

export interface ProgressNotificationParams {
  progressToken: ProgressToken;
  progress: number;
  total?: number;
  message?: string;
  _meta?: JsonObject;
}

// ── Content ─────────────────────────────────────────────────────────────────────────────────
export interface Annotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: JsonObject;
}

export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: JsonObject;
}

export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: JsonObject;
}

export interface ResourceLink extends ResourceDescriptor {
  type: 'resource_link';
}

export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

// ── Tools ───────────────────────────────────────────────────────────────────────────────────
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface JsonSchemaObject {
  type?: string | string[];
  [keyword: string]: unknown;
}

export interface Tool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchemaObject & { type: 'object' };
  outputSchema?: JsonSchemaObject;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface ListToolsResult extends PaginatedResult, CacheHints {
  tools: Tool[];
}

export interface CallToolResult extends Result {
  content: ContentBlock[];
  structuredContent?: unknown;
  isError?: boolean;
}

// ── Prompts ─────────────────────────────────────────────────────────────────────────────────
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}

export interface Prompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

export interface ListPromptsResult extends PaginatedResult, CacheHints {
  prompts: Prompt[];
}

export interface GetPromptResult extends Result {
  description?: string;
  messages: PromptMessage[];
}

// ── Resources ───────────────────────────────────────────────────────────────────────────────
export interface ResourceDescriptor {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  size?: number;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface ResourceTemplateDescriptor {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
  icons?: Icon[];
  _meta?: JsonObject;
}

export interface ReadResourceResult extends Result, CacheHints {
  contents: ResourceContents[];
}

export interface ListResourcesResult extends PaginatedResult, CacheHints {
  resources: ResourceDescriptor[];
}

export interface ListResourceTemplatesResult extends PaginatedResult, CacheHints {
  resourceTemplates: ResourceTemplateDescriptor[];
}

// ── Completions ─────────────────────────────────────────────────────────────────────────────
export interface PromptReference {
  type: 'ref/prompt';
  name: string;
  title?: string;
}

export interface ResourceTemplateReference {
  type: 'ref/resource';
  uri: string;
}

export interface CompleteResult extends Result {
  completion: { values: string[]; total?: number; hasMore?: boolean };
}

// ── Multi round-trip requests ───────────────────────────────────────────────────────────────
export interface ElicitRequestFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: {
    $schema?: string;
    type: 'object';
    properties: Record<string, JsonObject>;
    required?: string[];
  };
}

export interface ElicitRequestUrlParams {
  mode: 'url';
  message: string;
  url: string;
}

export interface ElicitInputRequest {
  method: 'elicitation/create';
  params: ElicitRequestFormParams | ElicitRequestUrlParams;
}

export interface CreateMessageInputRequest {
  method: 'sampling/createMessage';
  params: {
    messages: Array<{ role: 'user' | 'assistant'; content: JsonObject | JsonObject[] }>;
    maxTokens: number;
    [key: string]: unknown;
  };
}

export interface ListRootsInputRequest {
  method: 'roots/list';
  params?: JsonObject;
}

export type InputRequest = ElicitInputRequest | CreateMessageInputRequest | ListRootsInputRequest;
export type InputRequests = Record<string, InputRequest>;

export type ElicitAction = 'accept' | 'decline' | 'cancel';
export type ElicitContentValue = string | number | boolean | string[];

export interface ElicitResponse {
  action: ElicitAction;
  content?: Record<string, ElicitContentValue>;
  _meta?: JsonObject;
}

/** What a client answers to one input request: an ElicitResult, CreateMessageResult or ListRootsResult. */
export type InputResponse = JsonObject;
export type InputResponses = Record<string, InputResponse>;

export interface InputRequiredResult extends Result {
  resultType: 'input_required';
  inputRequests?: InputRequests;
  requestState?: string;
}
