/**
 * Requests from a chosen loopback address (127.0.0.2, 127.0.0.3, …): one more client as the module tells
 * clients apart without auth, by the address they connect from.
 */
import { expect } from '@jest/globals';
import { request as httpRequest } from 'node:http';
import { parseSse, standardHeaders, type Json } from './mcp-http.js';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The last JSON-RPC message of the answer (JSON or SSE); undefined when the body is empty. */
  body: Json;
}

/** Sends one HTTP request from the local address `from`. */
export function requestFrom(from: string, url: string, method: string, headers: Record<string, string>, body?: Json): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const request = httpRequest(url, { method, localAddress: from, headers: { ...headers, 'content-length': Buffer.byteLength(text) } }, (response) => {
      let answer = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (answer += chunk));
      response.on('end', () => {
        const type = response.headers['content-type'] ?? '';
        const messages = type.startsWith('text/event-stream') ? parseSse(answer) : answer ? [JSON.parse(answer)] : [];
        resolve({ status: response.statusCode!, headers: response.headers, body: messages.at(-1) });
      });
    });
    request.on('error', reject);
    request.end(text);
  });
}

/** POSTs `body` from the local address `from`, with the standard 2026-07-28 headers and `headers` over them (undefined drops one). */
export function postFrom(from: string, url: string, body: Json, headers: Record<string, string | undefined> = {}): Promise<Reply> {
  const merged = Object.entries({ ...standardHeaders(body), ...headers }).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return requestFrom(from, url, 'POST', Object.fromEntries(merged), body);
}

/** The retryable refusal: its HTTP status and code, a Retry-After in whole seconds, and the same wait in data. */
export function expectRefused(reply: Reply, status: 503 | 429, code: -31503 | -31429, message: RegExp): void {
  expect({ status: reply.status, code: reply.body?.error?.code }).toEqual({ status, code });
  expect(reply.body.error.message).toMatch(message);
  expect(reply.body.error.message).not.toMatch(/at |\.ts:|Error:/); // no stack, no path
  const retryAfter = Number(reply.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(retryAfter).toBe(Math.max(1, Math.ceil(reply.body.error.data.retryAfterMs / 1000)));
}
