import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { hideBodyFromFastify, isHookOf, routeContextOf, standInPayload } from './fastify-internals.js';
import { nodeExchange } from './http-exchange.js';
import { jsonRpcError } from './json-response.js';
import type { AnsweringEdge } from './request-body.js';

// The few Fastify shapes used here, written out so the package needs Fastify only where it runs.
interface FastifyRequestLike {
  raw: IncomingMessage;
  body?: unknown;
  headers: IncomingMessage['headers'];
}
interface FastifyReplyLike {
  raw: ServerResponse;
  hijack(): void;
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

/** What the application's JSON parser is given for a non-POST body, which MCP does not read. */
const PARSED_ELSEWHERE = Buffer.from('null');
/** The body the edge parsed, and the framing headers set aside, on the Node request until validation. */
const PARSED = Symbol('nest-mcp:parsed-body');
type ParkedRequest = IncomingMessage & { [PARSED]?: { body: unknown; headers: IncomingMessage['headers'] } };

/**
 * On Fastify the endpoint's checks and body reading are hooks of the MCP route alone (the rest
 * of the application keeps its own parsers and limits). Fastify fixes a route's options when the
 * route is added, before any module lifecycle hook, so this runs as soon as the adapter exists.
 *
 * - `preParsing`: Origin, Host, Accept, media type and declared size are judged before the body is
 *   read; the body is then read and parsed with the same limits, decoding and answers as on Express.
 *   Its framing headers (`Content-Type`, `Content-Length`, `Transfer-Encoding`) are set aside until
 *   validation, so Fastify sees a request without a body and runs no content-type parser: the body
 *   is parsed once, by rules that do not depend on how the application configured its parsers
 *   (`bodyParser: false`, prototype-poisoning policy), and no stand-in stream is made per request.
 * - `bodyLimit` (route level) is the module's `maxBodyBytes`, so Fastify's own check of the declared
 *   length agrees with the edge's.
 * - `preValidation`: puts the headers back and the parsed body on `request.body`.
 * - When nothing but the MCP controller would see the POST after the body is read (no other
 *   `preValidation` or `preHandler` hook on the route, and Nest adds nothing: `nestAddsNothing()`),
 *   `preParsing` hands it to `handlePost()` itself with the reply hijacked, as the controller does,
 *   instead of running Fastify's remaining steps and Nest's route handler to get there.
 *
 * Calls `onMcpRoute` for each MCP route it prepares (start-up checks that there was one). A route that
 * takes POST and whose path ends with the endpoint is one, as the Express edge matches paths.
 */
export function prepareFastifyEdge(fastify: unknown, edge: AnsweringEdge, onMcpRoute: () => void): void {
  (fastify as FastifyLike).addHook('onRoute', (route) => {
    if (![route.method].flat().includes('POST') || !edge.isEndpoint(route.url)) return;
    route.bodyLimit = edge.limits.maxBodyBytes;
    route.preParsing = [...[route.preParsing ?? []].flat(), (request, reply, _payload, done) => readBody(edge, request, reply, done)];
    route.preValidation = [...[route.preValidation ?? []].flat(), restoreMcpBody];
    onMcpRoute();
  });
}

/** POST: admits and reads the body. Other methods (405, or DELETE of a 2025 session): their body means nothing to MCP and is not read. */
function readBody(edge: AnsweringEdge, request: FastifyRequestLike, reply: FastifyReplyLike, done: (error: Error | null, payload?: Readable) => void): void {
  if (request.raw.method !== 'POST') return done(null, standInPayload(request.headers, PARSED_ELSEWHERE));
  edge.admit(request.raw, reply.raw).then((read) => {
    if (!('body' in read)) {
      reply.code(read.status).send(jsonRpcError(read.error));
      return;
    }
    if (edge.nestAddsNothing() && nothingFollows(request)) {
      request.body = read.body;
      const exchange = nodeExchange(request, reply);
      edge.handlePost(exchange.req, exchange.res);
      // The reply is hijacked: Fastify runs none of the route's later steps.
      return done(null);
    }
    parkBody(request.raw, read.body);
    done(null);
  }, done);
}

/** The answer of `nothingFollows` per route context: a route's hooks are fixed once Fastify is ready. */
const nothingFollowsRoute = new WeakMap<object, boolean>();

/**
 * True when the route runs no hook after `preParsing` but the edge's own `restoreMcpBody`: the application
 * added no `preValidation` or `preHandler` hook (Fastify merges its hooks into the route's context). A
 * context that cannot be read counts as one that has hooks.
 */
function nothingFollows(request: FastifyRequestLike): boolean {
  const context = routeContextOf(request);
  if (!context) return false;
  let answer = nothingFollowsRoute.get(context);
  if (answer === undefined) {
    const { preValidation, preHandler } = context;
    answer = Array.isArray(preValidation) && preValidation.length === 1 && isHookOf(preValidation[0], restoreMcpBody) && (preHandler == null || (Array.isArray(preHandler) && preHandler.length === 0));
    nothingFollowsRoute.set(context, answer);
  }
  return answer;
}

function parkBody(raw: ParkedRequest, body: unknown): void {
  raw[PARSED] = { body, headers: hideBodyFromFastify(raw.headers) };
}

function restoreMcpBody(request: FastifyRequestLike, _reply: FastifyReplyLike, done: () => void): void {
  const raw = request.raw as ParkedRequest;
  const parked = raw[PARSED];
  if (parked) {
    Object.assign(raw.headers, parked.headers);
    request.body = parked.body;
    raw[PARSED] = undefined;
  }
  done();
}
