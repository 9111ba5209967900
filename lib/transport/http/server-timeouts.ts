import type { Logger } from '@nestjs/common';
import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { InvalidRequestError } from '../../protocol/mcp.error.js';
import { jsonRpcError } from './json-response.js';
import { isDraining } from './request-body.js';

/** The server-wide timeouts the module sets: Node's `server.requestTimeout` and `server.headersTimeout`. */
export interface ServerTimeouts {
  requestTimeoutMs: number;
  headersTimeoutMs: number;
}

/** Node checks its timeouts every `connectionsCheckingInterval`: at most this often… */
const CHECK_MIN_MS = 100;
/** …and at least this often (Node's default is 30 s, which let a 10 s header timeout hold a socket for 40 s). */
const CHECK_MAX_MS = 1_000;

const TIMEOUT_BODY = JSON.stringify(jsonRpcError(new InvalidRequestError('Request Timeout: the request did not arrive in time')));

/** The answer to a request Node's timers gave up on: a JSON-RPC error, like every other refusal of the endpoint. */
const TIMEOUT_ANSWER =
  'HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json\r\n' +
  `Content-Length: ${Buffer.byteLength(TIMEOUT_BODY)}\r\nConnection: close\r\n\r\n${TIMEOUT_BODY}`;

/**
 * What Node answers other client errors with when no `clientError` listener does (its documented
 * default, written out because a listener replaces it): 431, 413 for oversized chunk extensions, else 400.
 */
const NODE_ANSWERS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Payload Too Large',
};

/** Servers that have the listener (a second McpModule on another endpoint shares the server). */
const answering = new WeakSet<Server>();

/**
 * Sets the HTTP server's header and request timeouts and how they are answered, on either adapter.
 *
 * - `headersTimeout` / `requestTimeout`: Node's own, server-wide (the module does not own the server,
 *   the application's `listen` starts it).
 * - `connectionsCheckingInterval`: how often Node looks for expired requests; read when the server
 *   starts listening, so it takes effect when this runs before `listen` (at module init, as Nest does).
 *   A tenth of the shorter timeout, between 100 ms and 1 s: a timeout is answered at most that late.
 * - The 408 carries a JSON-RPC error body on both adapters (Node's is empty, Fastify's is its own
 *   JSON), logged at debug level: a slow client is the client's doing. Other client errors are left
 *   as they were: to the application's or Fastify's listener, else answered as Node does.
 */
export function applyServerTimeouts(server: Server, timeouts: ServerTimeouts, logger: Logger): void {
  server.requestTimeout = timeouts.requestTimeoutMs;
  server.headersTimeout = timeouts.headersTimeoutMs;
  const every = Math.min(CHECK_MAX_MS, Math.max(CHECK_MIN_MS, Math.floor(Math.min(timeouts.requestTimeoutMs, timeouts.headersTimeoutMs) / 10)));
  const checked = server as Server & { connectionsCheckingInterval: number };
  if (!(checked.connectionsCheckingInterval <= every)) checked.connectionsCheckingInterval = every;
  if (answering.has(server)) return;
  answering.add(server);
  server.prependListener('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // A refused body being drained was answered already: the drain just ends here.
      if (!isDraining(socket)) {
        logger.debug(
          `A client did not send its request within the time limits (headers ${timeouts.headersTimeoutMs} ms, whole request ` +
            `${timeouts.requestTimeoutMs} ms) from ${String((socket as { remoteAddress?: string }).remoteAddress)}; answered 408`,
        );
        answer(socket, TIMEOUT_ANSWER);
      }
      socket.destroy();
      return;
    }
    // Fastify's listener, or the application's, answers the rest; else Node's default, as without this listener.
    if (server.listenerCount('clientError') > 1) return;
    answer(socket, `HTTP/1.1 ${NODE_ANSWERS[error.code ?? ''] ?? '400 Bad Request'}\r\nConnection: close\r\n\r\n`);
    socket.destroy(error);
  });
}

/** Writes a raw answer unless a response is under way on the socket (its bytes would corrupt it), as Node does. */
function answer(socket: Duplex, text: string): void {
  const current = (socket as { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !current?.headersSent) socket.write(text);
}
