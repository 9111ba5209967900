import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { writeJson } from './json-response.js';

/** Fastify's reply, as far as it is used here (Express hands Nest Node's own objects). */
interface FastifyReplyLike {
  raw: ServerResponse;
  hijack(): void;
  code(status: number): FastifyReplyLike;
  headers(values: OutgoingHttpHeaders): FastifyReplyLike;
  send(body: unknown): FastifyReplyLike;
}

function isFastifyReply(res: unknown): res is FastifyReplyLike {
  return typeof (res as Partial<FastifyReplyLike>)?.hijack === 'function' && typeof (res as Partial<FastifyReplyLike>).raw === 'object';
}

/** The Node request under a Fastify request (which keeps it as `raw`), or the request itself. @internal */
export function nodeRequestOf<T extends IncomingMessage>(req: unknown): T {
  const raw = (req as { raw?: unknown }).raw;
  return (raw && typeof raw === 'object' ? raw : req) as T;
}

/**
 * The Node request and response a Nest handler of the endpoint gets, on either adapter. A Fastify
 * reply is hijacked (Fastify leaves the response to the transport: SSE streams, 202s, cancellation
 * on close) and its request's parsed body is carried over to the Node request, as Express has it.
 * @internal
 */
export function nodeExchange<T extends IncomingMessage & { body?: unknown }>(req: unknown, res: unknown): { req: T; res: ServerResponse } {
  if (!isFastifyReply(res)) return { req: req as T, res: res as ServerResponse };
  res.hijack();
  const raw = nodeRequestOf<T>(req);
  raw.body = (req as { body?: unknown }).body;
  // Express links the request to its response as `req.res` (the step-up scope challenge finds it there).
  // Assigned as Express does: defining a property with its own attributes slows every request (docs/benchmarks.md).
  if (!('res' in raw)) (raw as { res?: ServerResponse }).res = res.raw;
  return { req: raw, res: res.raw };
}

/** Answers one JSON body through the adapter: Fastify's reply (its serializer and hooks), or Node's response. @internal */
export function sendJson(res: unknown, status: number, body: unknown, headers: OutgoingHttpHeaders = {}): void {
  if (isFastifyReply(res)) {
    res.code(status).headers(headers).send(body);
    return;
  }
  writeJson(res as ServerResponse, status, body, headers);
}

/** Answers one body (a page, a file, a short text) through the adapter: Fastify's reply, or Node's response. @internal */
export function sendBody(res: unknown, status: number, headers: OutgoingHttpHeaders, body: string | Buffer): void {
  if (isFastifyReply(res)) {
    res.code(status).headers(headers).send(body);
    return;
  }
  (res as ServerResponse).writeHead(status, headers);
  (res as ServerResponse).end(body);
}

/** Answers a short plain text (a 404, a 403) through the adapter. @internal */
export function sendText(res: unknown, status: number, text: string, headers: OutgoingHttpHeaders = {}): void {
  sendBody(res, status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }, text);
}
