/**
 * A small HTTP client for the interactive-features e2e tests: one POST per JSON-RPC request with the
 * 2026-07-28 headers and `_meta`, and a reader that turns a JSON or SSE response into a list of messages.
 */
export const PROTOCOL_VERSION = '2026-07-28';
export const META_PROTOCOL_VERSION = 'io.modelcontextprotocol/protocolVersion';
export const META_CLIENT_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';

/** One JSON-RPC message as received (kept loose: tests assert on exact values). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Msg = Record<string, any>;

export interface McpReply {
  status: number;
  /** The media type only, e.g. `application/json` or `text/event-stream`. */
  contentType: string;
  /** Every JSON-RPC message of the body, in order (one for JSON, all `data:` lines for SSE). */
  messages: Msg[];
  /** The last message: the final response. */
  response: Msg;
  /** Messages before the final response (for a well-formed stream: the notifications). */
  notifications: Msg[];
}

export interface CallOptions {
  /** Defaults to `{ elicitation: {} }`. */
  capabilities?: Record<string, unknown>;
  progressToken?: string | number;
  /** Extra top-level params (`inputResponses`, `requestState`, unknown extras, …). */
  extra?: Record<string, unknown>;
  signal?: AbortSignal;
  id?: number | string;
}

let nextId = 1;

export function headersFor(method: string, name?: string): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': PROTOCOL_VERSION,
    'Mcp-Method': method,
  };
  if (name !== undefined) headers['Mcp-Name'] = name;
  return headers;
}

export function metaFor(options: CallOptions = {}): Record<string, unknown> {
  return {
    [META_PROTOCOL_VERSION]: PROTOCOL_VERSION,
    [META_CLIENT_CAPABILITIES]: options.capabilities ?? { elicitation: {} },
    ...(options.progressToken !== undefined ? { progressToken: options.progressToken } : {}),
  };
}

/** Sends one JSON-RPC request and returns the raw fetch Response (for streaming tests). */
export function post(url: string, method: string, params: Record<string, unknown>, options: CallOptions = {}): Promise<Response> {
  const name = method === 'tools/call' || method === 'prompts/get' ? (params.name as string) : method === 'resources/read' ? (params.uri as string) : undefined;
  const body = {
    jsonrpc: '2.0',
    id: options.id ?? nextId++,
    method,
    params: { ...params, _meta: metaFor(options), ...(options.extra ?? {}) },
  };
  return fetch(url, { method: 'POST', headers: headersFor(method, name), body: JSON.stringify(body), signal: options.signal });
}

/** Parses the `data:` lines of an SSE body into messages. */
export function parseSse(text: string): Msg[] {
  const messages: Msg[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data.length > 0) messages.push(JSON.parse(data) as Msg);
  }
  return messages;
}

/** Reads an SSE body as it arrives, calling `onEvent` per message; returns the whole text (also when aborted). */
export async function readEvents(response: Response, onEvent: (message: Msg) => void): Promise<string> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let buffer = '';
  for (;;) {
    let chunk: { done: boolean; value?: Uint8Array };
    try {
      chunk = await reader.read();
    } catch {
      break; // aborted
    }
    if (chunk.done) break;
    const piece = decoder.decode(chunk.value, { stream: true });
    text += piece;
    buffer += piece;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      for (const message of parseSse(buffer.slice(0, end + 2))) onEvent(message);
      buffer = buffer.slice(end + 2);
    }
  }
  return text;
}

export async function read(response: Response): Promise<McpReply> {
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const text = await response.text();
  let messages: Msg[];
  if (contentType === 'text/event-stream') messages = parseSse(text);
  else if (text.length > 0) messages = [JSON.parse(text) as Msg];
  else messages = [];
  return {
    status: response.status,
    contentType,
    messages,
    response: messages[messages.length - 1] ?? {},
    notifications: messages.slice(0, -1),
  };
}

/** `tools/call` over HTTP, read to the end. */
export async function callTool(
  url: string,
  name: string,
  args: Record<string, unknown> = {},
  options: CallOptions = {},
): Promise<McpReply> {
  return read(await post(url, 'tools/call', { name, arguments: args }, options));
}

/** For what is defined in time (a TTL running out): load can only lengthen the wait. Never for events: see waiting.ts. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh base64 256-bit key. */
export function randomSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('base64');
}
