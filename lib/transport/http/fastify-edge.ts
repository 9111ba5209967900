import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { jsonRpcError } from './json-response.js';
import type { EndpointEdge } from './request-body.js';

// The few Fastify shapes used here, written out so the package needs Fastify only where it runs.
interface FastifyRequestLike {
  raw: IncomingMessage;
  body?: unknown;
  headers: IncomingMessage['headers'];
}
interface FastifyReplyLike {
  raw: ServerResponse;
  code(status: number): FastifyReplyLike;
  header(name: string, value: string): FastifyReplyLike;
  send(body: unknown): FastifyReplyLike;
}
type PreParsingHook = (request: FastifyRequestLike, reply: FastifyReplyLike, payload: Readable, done: (error: Error | null, payload?: Readable) => void) => void;
type PreValidationHook = (request: FastifyRequestLike, reply: FastifyReplyLike, done: () => void) => void;
interface RouteOptionsLike {
  method: string | string[];
  url: string;
  bodyLimit?: number;
  preParsing?: PreParsingHook | PreParsingHook[];
  preValidation?: PreValidationHook | PreValidationHook[];
}
interface FastifyLike {
  addHook(name: 'onRoute', hook: (route: RouteOptionsLike) => void): unknown;
}

/** Bodies the edge read and parsed, until Fastify's lifecycle reaches validation. */
const bodies = new WeakMap<IncomingMessage, unknown>();
/** What the application's JSON parser is given instead of the body the edge already parsed. */
const PARSED_ELSEWHERE = Buffer.from('null');

/**
 * On Fastify the endpoint's checks and body reading are hooks of the MCP route alone (the rest
 * of the application keeps its own parsers and limits). Fastify fixes a route's options when the
 * route is added, before any module lifecycle hook, so this runs as soon as the adapter exists.
 *
 * - `preParsing`: Origin, Host, Accept, media type and declared size are judged before the body is
 *   read; the body is then read and parsed with the same limits, decoding and answers as on Express.
 *   The application's JSON parser, which still runs (a route cannot opt out of it), is handed
 *   `null` instead of the body, so the body is parsed once, by rules that do not depend on how the
 *   application configured its parser (`bodyParser: false`, prototype-poisoning policy).
 * - `bodyLimit` (route level) is the module's `maxBodyBytes`, so Fastify's own check of the declared
 *   length agrees with the edge's.
 * - `preValidation`: puts the parsed body back on `request.body`.
 *
 * Calls `onMcpRoute` for each MCP route it prepares (start-up checks that there was one). A route that
 * takes POST and whose path ends with the endpoint is one, as the Express edge matches paths.
 */
export function prepareFastifyEdge(fastify: unknown, edge: EndpointEdge, onMcpRoute: () => void): void {
  (fastify as FastifyLike).addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST') || !edge.isEndpoint(route.url)) return;
    route.bodyLimit = edge.limits.maxBodyBytes;
    route.preParsing = [...[route.preParsing ?? []].flat(), (request, reply, _payload, done) => readBody(edge, request, reply, done)];
    route.preValidation = [...[route.preValidation ?? []].flat(), restoreBody];
    onMcpRoute();
  });
}

/** POST: admits and reads the body. Other methods (405, or DELETE of a 2025 session): their body means nothing to MCP and is not read. */
function readBody(edge: EndpointEdge, request: FastifyRequestLike, reply: FastifyReplyLike, done: (error: Error | null, payload?: Readable) => void): void {
  if (request.raw.method !== 'POST') return done(null, standInFor(request));
  edge.admit(request.raw, reply.raw).then((read) => {
    if (!('body' in read)) {
      // Closing the connection is what stops Node from reading the rest of an unread body.
      if (!request.raw.complete) reply.header('Connection', 'close');
      reply.code(read.status).send(jsonRpcError(read.error));
      return;
    }
    bodies.set(request.raw, read.body);
    done(null, standInFor(request));
  }, done);
}

function standInFor(request: FastifyRequestLike): Readable {
  // Fastify compares the bytes it reads with Content-Length, and cannot match a declared 0 (its check
  // is `received || read`). Node has framed the body already, so the header is dropped then.
  if (request.headers['content-length'] === '0') delete request.headers['content-length'];
  return Object.assign(Readable.from([PARSED_ELSEWHERE]), {
    receivedEncodedLength: Number(request.headers['content-length']) || 0,
  });
}

function restoreBody(request: FastifyRequestLike, _reply: FastifyReplyLike, done: () => void): void {
  if (bodies.has(request.raw)) {
    request.body = bodies.get(request.raw);
    bodies.delete(request.raw);
  }
  done();
}
