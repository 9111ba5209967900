import 'reflect-metadata';
import type { INestApplication, LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { eventStreamData } from '../../lib/testing/event-stream.js';
import { createHttpApp } from './http-adapter.js';
import { within } from './waiting.js';
import { assertServerMessage } from './wire-schema.js';

export const PROTOCOL_VERSION = '2026-07-28';
export const CLIENT_INFO = { name: 'nest-mcp-e2e', version: '1.0.0' };

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Json = any;

/** `value` as JSON would carry it, undefined fields dropped: what a client parsed, for schema checks and equality. */
export function plain(value: unknown): Json {
  return JSON.parse(JSON.stringify(value));
}

/** The standard per-request `_meta` envelope of 2026-07-28. */
export function standardMeta(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': {},
    ...overrides,
  };
}

let nextId = 1;

/** A JSON-RPC request body with the standard `_meta` (merged with `meta`; `params._meta` wins if given). */
export function rpc(method: string, params: Record<string, unknown> = {}, options: { id?: string | number; meta?: Record<string, unknown> } = {}): Json {
  return {
    jsonrpc: '2.0',
    id: options.id ?? nextId++,
    method,
    params: { _meta: standardMeta(options.meta), ...params },
  };
}

/**
 * The headers a conforming client sends for `body`: Accept, Content-Type, MCP-Protocol-Version
 * (from `_meta`), Mcp-Method and, for tools/call / prompts/get / resources/read, Mcp-Name.
 */
export function standardHeaders(body: Json): Record<string, string> {
  const headers: Record<string, string> = {
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
  };
  const version = body?.params?._meta?.['io.modelcontextprotocol/protocolVersion'];
  if (typeof version === 'string') headers['mcp-protocol-version'] = version;
  if (typeof body?.method === 'string') headers['mcp-method'] = body.method;
  const name = body?.method === 'resources/read' ? body?.params?.uri : body?.params?.name;
  if (['tools/call', 'prompts/get', 'resources/read'].includes(body?.method) && typeof name === 'string') headers['mcp-name'] = name;
  return headers;
}

export interface McpHttpResponse {
  status: number;
  headers: Headers;
  contentType: string;
  text: string;
  /** Every JSON-RPC message in the body (one for JSON, each event's data for SSE). */
  messages: Json[];
  /** The last message carrying an `id` (the final response), or the JSON body. */
  body: Json;
}

export interface PostOptions {
  /** Header overrides; `undefined` removes a standard header. Names are lower-case. */
  headers?: Record<string, string | undefined>;
  /** Send this text verbatim instead of `JSON.stringify(body)`. */
  rawBody?: string;
  /** Skip the schema validation of the server's messages (for tests that look at raw errors). */
  skipSchema?: boolean;
  method?: string;
}

/** Parses an SSE body into the JSON of each event's `data:` lines. */
export function parseSse(text: string): Json[] {
  const messages: Json[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data) messages.push(JSON.parse(data));
  }
  return messages;
}

/**
 * POSTs `body` to the MCP endpoint with the standard headers and parses JSON or SSE. Every server
 * message is validated against schema.json (result defs chosen by the request's method).
 */
export async function postMcp(url: string, body: Json, options: PostOptions = {}): Promise<McpHttpResponse> {
  const headers: Record<string, string> = { ...standardHeaders(body) };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (value === undefined) delete headers[name.toLowerCase()];
    else headers[name.toLowerCase()] = value;
  }
  const response = await fetch(url, {
    method: options.method ?? 'POST',
    headers,
    body: options.method && options.method !== 'POST' ? undefined : (options.rawBody ?? JSON.stringify(body)),
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let messages: Json[] = [];
  if (contentType.startsWith('text/event-stream')) messages = parseSse(text);
  else if (contentType.startsWith('application/json') && text) messages = [JSON.parse(text)];
  if (!options.skipSchema) {
    for (const message of messages) assertServerMessage(message, { method: body?.method });
  }
  const finals = messages.filter((message) => message && typeof message === 'object' && ('result' in message || 'error' in message));
  return { status: response.status, headers: response.headers, contentType, text, messages, body: finals.at(-1) ?? messages.at(-1) };
}

/** Sends a standard request for `method` and returns the parsed response. */
export function callMcp(url: string, method: string, params: Record<string, unknown> = {}, options: PostOptions & { meta?: Record<string, unknown> } = {}): Promise<McpHttpResponse> {
  return postMcp(url, rpc(method, params, { meta: options.meta }), options);
}

/** The 2025-11-25 era, which older clients speak through `initialize` and sealed sessions. */
export const LEGACY_PROTOCOL_VERSION = '2025-11-25';

/** postMcp header overrides for a 2025 client: none of the 2026-07-28 headers (it has no version to claim before `initialize`). */
export const LEGACY_HEADERS = { 'mcp-method': undefined, 'mcp-name': undefined, 'mcp-protocol-version': undefined };

/** postMcp header overrides for a request of an open 2025 session. */
export function legacySessionHeaders(sessionId: string): Record<string, string | undefined> {
  return { ...LEGACY_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY_PROTOCOL_VERSION };
}

/** A hand-written 2025 `initialize` request body. */
export function legacyInitialize(protocolVersion = LEGACY_PROTOCOL_VERSION): Json {
  return { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
}

/** POSTs a 2025 `initialize` by hand (schema left to the caller); its answer, with the session id it issued. */
export async function openLegacySession(url: string): Promise<McpHttpResponse & { sessionId: string }> {
  const response = await postMcp(url, legacyInitialize(), { headers: LEGACY_HEADERS, skipSchema: true });
  return { ...response, sessionId: response.headers.get('mcp-session-id')! };
}

export interface StartedApp {
  app: INestApplication;
  /** Base URL, e.g. http://127.0.0.1:PORT */
  baseUrl: string;
  /** The MCP endpoint URL (baseUrl + endpoint). */
  url: string;
}

/** Compiles a real testing module with `imports`, listens on a free port on 127.0.0.1. */
export async function startApp(imports: any[], endpoint = '/mcp', providers: any[] = [], logger: LoggerService | false = false): Promise<StartedApp> {
  const moduleRef = await Test.createTestingModule({ imports, providers }).compile();
  const app = createHttpApp(moduleRef, { logger });
  await app.listen(0, '127.0.0.1');
  // The tests' fetch drops an idle socket after 4 s; a server that drops it first (Node: 5 s) races a request
  // reusing it (ECONNRESET) on a loaded machine. Longer here, so the client always lets go first.
  app.getHttpServer().keepAliveTimeout = 65_000;
  const { port } = app.getHttpServer().address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return { app, baseUrl, url: `${baseUrl}${endpoint}` };
}

/** Compiles and initialises an app of `imports` that must fail start-up; resolves to its error. */
export async function startupFailure(imports: any[]): Promise<Error> {
  try {
    const moduleRef = await Test.createTestingModule({ imports }).compile();
    const app = createHttpApp(moduleRef, { logger: false });
    try {
      await app.init();
    } finally {
      await app.close().catch(() => undefined);
    }
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`start-up failed with a non-Error: ${String(error)}`);
  }
  throw new Error('start-up succeeded, but a failure was expected');
}

/** The SSE events of a response as JSON, one at a time as they arrive (each wait bounded as every wait is). */
export function sseEvents(response: Response): () => Promise<Json> {
  const data = eventStreamData(response.body!);
  return async () => {
    const next = await within(data.next(), `the next event of the stream from ${response.url}`);
    if (next.done) throw new Error(`the stream from ${response.url} ended`);
    return JSON.parse(next.value) as Json;
  };
}
