import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import { Deadlines } from '../../protocol/deadlines.js';
import { InvalidRequestError, ParseError, type McpError } from '../../protocol/mcp.error.js';
import type { OriginPolicy } from './origin.policy.js';
import { headerValue } from './request-headers.js';

/** An answer given instead of serving the request. */
export interface Refusal {
  status: number;
  error: McpError;
}

const DECODERS = new Map<string, () => Gunzip | ReturnType<typeof createInflate> | ReturnType<typeof createBrotliDecompress>>([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

/** True when the `Accept` header offers `type`: by name, or by a wildcard of its family or of all types. */
export function acceptOffers(accept: string | undefined, type: string): boolean {
  return accept !== undefined && offers(mediaRanges(accept), type);
}

/** The media types an `Accept` header lists, lower-cased, without parameters. */
function mediaRanges(accept: string): string[] {
  return accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase());
}

function offers(ranges: string[], type: string): boolean {
  return ranges.includes(type) || ranges.includes(`${type.split('/')[0]}/*`) || ranges.includes('*/*');
}

/** What conforming clients send, answered without parsing. */
const USUAL_ACCEPT = new Set(['application/json, text/event-stream', 'text/event-stream, application/json']);

function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  if (USUAL_ACCEPT.has(accept)) return true;
  const ranges = mediaRanges(accept);
  return offers(ranges, 'application/json') && offers(ranges, 'text/event-stream');
}

/** One decoder for every body: without `stream: true` a decode keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** DNS-rebinding protection, for every method: a foreign Origin (or Host, when configured) gets 403. */
export function originRefusal(req: IncomingMessage, origins: OriginPolicy): Refusal | undefined {
  if (origins.isAllowed(headerValue(req.headers, 'origin'), headerValue(req.headers, 'host'))) return undefined;
  return { status: 403, error: new InvalidRequestError('Forbidden: this Origin is not allowed to call the MCP endpoint') };
}

/**
 * The checks a POST must pass before its body is read: Origin and Host first (a foreign page gets
 * 403 whatever it sends), then Accept, media type, charset, content coding and declared length.
 */
export function refusalBeforeBody(req: IncomingMessage, origins: OriginPolicy, maxBodyBytes: number): Refusal | undefined {
  const foreign = originRefusal(req, origins);
  if (foreign) return foreign;
  if (!acceptsBoth(headerValue(req.headers, 'accept'))) {
    return { status: 406, error: new InvalidRequestError('Not Acceptable: the Accept header must offer application/json and text/event-stream') };
  }
  const contentType = headerValue(req.headers, 'content-type');
  if (contentType !== 'application/json') {
    const refusal = mediaTypeRefusal(contentType ?? '');
    if (refusal) return refusal;
  }
  const coding = contentCoding(req);
  if (coding !== 'identity' && !DECODERS.has(coding)) {
    return { status: 415, error: new InvalidRequestError(`Unsupported Media Type: Content-Encoding "${coding}" is not supported`) };
  }
  if (Number(headerValue(req.headers, 'content-length') ?? 0) > maxBodyBytes) return tooLarge(maxBodyBytes);
  return undefined;
}

/** JSON in UTF-8, or a refusal (415). */
function mediaTypeRefusal(contentType: string): Refusal | undefined {
  const [mediaType, ...parameters] = contentType.split(';');
  if (mediaType.trim().toLowerCase() !== 'application/json') {
    return { status: 415, error: new InvalidRequestError('Unsupported Media Type: the body must be application/json') };
  }
  const charset = parameters.map((parameter) => /^\s*charset\s*=\s*"?([^"]*)"?\s*$/i.exec(parameter)?.[1]).find(Boolean);
  if (charset !== undefined && !['utf-8', 'utf8'].includes(charset.toLowerCase())) {
    return { status: 415, error: new InvalidRequestError('Unsupported Media Type: the body must be UTF-8 JSON') };
  }
  return undefined;
}

/** The limits a POST body of the MCP endpoint is read under. */
export interface BodyLimits {
  maxBodyBytes: number;
  maxJsonDepth: number;
  /** How long the body may take to arrive, from the end of its headers (or from `100 Continue`). */
  bodyTimeoutMs: number;
}

/** What an adapter's edge needs of the module: which paths are the endpoint, and how a POST is admitted. */
export interface EndpointEdge {
  readonly limits: BodyLimits;
  /** True for a URL (path and query) or route path of the endpoint. */
  isEndpoint(url: string): boolean;
  /**
   * Header checks, `100 Continue`, then the parsed body, or the refusal to answer. With a refusal, the
   * connection is already seen to: what is left of the body is drained, or the connection closes after the answer.
   */
  admit(req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | Refusal>;
}

/**
 * What an adapter's edge needs to answer a POST itself, when nothing but the MCP controller would see it
 * (express-edge.ts, fastify-edge.ts): skipping the rest of the router or the route's lifecycle only to
 * reach the same `handlePost()` is a large part of a call's cost.
 */
export interface AnsweringEdge extends EndpointEdge {
  /** The MCP controller's own work for a POST (the controller calls the same). */
  handlePost(req: IncomingMessage & { body?: unknown }, res: ServerResponse): void;
  /**
   * True while Nest would run nothing around the MCP route but its handler: no global guard or
   * interceptor, no bearer auth (pipes never see `@Req()`/`@Res()`), and `mocapi.invoker` is not `nest`.
   */
  nestAddsNothing(): boolean;
}

/**
 * Everything between a POST's headers and its handler, on either adapter: the header checks, then
 * `100 Continue` (when asked for) and the body. A refusal is returned for the edge to answer, the
 * rest of its body taken care of (`afterRefusal`); `onBodyRefused` sees a refusal of the body itself.
 * One promise per POST: the steps that do not wait (the checks, parsing) run inside it rather than as
 * awaited steps of their own.
 */
export function admitJsonBody(
  req: IncomingMessage,
  res: ServerResponse,
  origins: OriginPolicy,
  limits: BodyLimits,
  onBodyRefused?: (refusal: Refusal) => void,
): Promise<{ body: unknown } | Refusal> {
  const refusal = refusalBeforeBody(req, origins, limits.maxBodyBytes);
  if (refusal) {
    // A client waiting for 100 Continue sends no body: nothing is left to read, and the connection cannot carry another request.
    if (expectsContinue(req)) res.setHeader('Connection', 'close');
    else afterRefusal(req, res, limits);
    return Promise.resolve(refusal);
  }
  if (expectsContinue(req)) res.writeContinue();
  return readJsonBody(req, limits, (refused) => {
    afterRefusal(req, res, limits, refused.status === 408);
    onBodyRefused?.(refused);
  });
}

/**
 * Reads and parses the JSON body, stopping at `maxBodyBytes` (after decompression) or when it has not
 * arrived within `bodyTimeoutMs` (408): a larger or slower body is not read to its end. The nesting is
 * checked on the text, before parsing, so depth costs no recursion. `onRefused` sees a refusal before
 * the promise settles with it.
 */
export function readJsonBody(req: IncomingMessage, limits: BodyLimits, onRefused?: (refusal: Refusal) => void): Promise<{ body: unknown } | Refusal> {
  const coding = contentCoding(req);
  const decoder = DECODERS.get(coding)?.();
  const stream: Readable = decoder ? req.pipe(decoder) : req;
  const declared = decoder ? undefined : headerValue(req.headers, 'content-length');
  return new Promise((resolve) => {
    readBytes(req, stream, limits.maxBodyBytes, declared === undefined ? undefined : Number(declared), limits.bodyTimeoutMs, (read) => {
      if (decoder && typeof read === 'symbol') {
        req.unpipe(decoder);
        decoder.destroy();
      }
      const outcome = parseBody(read, limits);
      if ('status' in outcome) onRefused?.(outcome);
      resolve(outcome);
    });
  });
}

/** What the bytes read come to: the parsed body, or the refusal to answer. */
function parseBody(read: BytesRead, limits: BodyLimits): { body: unknown } | Refusal {
  if (read === TOO_LARGE) return tooLarge(limits.maxBodyBytes);
  if (read === TIMED_OUT) return { status: 408, error: new InvalidRequestError(`Request Timeout: the body did not arrive within ${limits.bodyTimeoutMs} ms`) };
  const text = read === UNREADABLE ? undefined : utf8(read.bytes);
  if (text === undefined) return { status: 400, error: new ParseError('Parse error: the body could not be read as UTF-8 JSON') };
  if (text.trim() === '') return { body: undefined };
  // A text of n characters cannot nest deeper than n/2 levels, nor deeper than it has brackets that
  // open: short bodies and the usual flat ones need no scan.
  if (text.length > limits.maxJsonDepth * 2 && opensMoreThan(text, limits.maxJsonDepth) && nestsDeeperThan(text, limits.maxJsonDepth)) {
    return { status: 400, error: new InvalidRequestError(`Invalid Request: the body is nested deeper than ${limits.maxJsonDepth} levels`) };
  }
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { status: 400, error: new ParseError() };
  }
}

/** The bytes as text, or undefined when they are not UTF-8. */
function utf8(bytes: Buffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

const TOO_LARGE = Symbol('too large');
const TIMED_OUT = Symbol('timed out');
/** The stream failed or closed before its end, or its length was not the one declared. */
const UNREADABLE = Symbol('unreadable');
type BytesRead = { bytes: Buffer } | typeof TOO_LARGE | typeof TIMED_OUT | typeof UNREADABLE;

/**
 * The bytes of `stream` (the request, or its decoder) to its end, unless there are more than `limit`,
 * they take longer than `timeoutMs`, or they end otherwise than declared. Stops reading at once in
 * those cases (the stream is paused, the listeners gone), leaving the rest to `afterRefusal`. `done`
 * is called once.
 */
function readBytes(req: IncomingMessage, stream: Readable, limit: number, declared: number | undefined, timeoutMs: number, done: (read: BytesRead) => void): void {
  const chunks: Buffer[] = [];
  let received = 0;
  const finish = (outcome: BytesRead) => {
    deadline.clear();
    stream.off('data', onData).off('end', onEnd).off('error', onFailure);
    req.off('close', onClose);
    if (typeof outcome === 'symbol') stream.pause();
    done(outcome);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) return finish(TOO_LARGE);
    chunks.push(chunk);
  };
  // A small body is one chunk: no copy then.
  const onEnd = () => finish(declared !== undefined && declared !== received ? UNREADABLE : { bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received) });
  const onFailure = () => finish(UNREADABLE);
  // Closed before the whole body came: the client went away mid-body.
  const onClose = () => (req.complete ? undefined : finish(UNREADABLE));
  const deadline = Deadlines.of(timeoutMs).set(() => finish(TIMED_OUT));
  stream.on('data', onData).on('end', onEnd).on('error', onFailure);
  req.on('close', onClose);
}

/** At most this much of a refused body is read and thrown away before the connection is closed instead. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;

/** Sockets whose refused body is being drained: a request timeout meanwhile has nothing left to answer. */
const draining = new WeakSet<object>();

/** True while the socket's refused request is drained: its answer went out already. */
export function isDraining(socket: object): boolean {
  return draining.has(socket);
}

/**
 * The connection of a refused POST whose body was not read to its end. A client still sending it
 * (Node's `fetch`, which the official SDKs use, sends the whole body before it reads an answer, and
 * fails with EPIPE when the server closes first) must be able to read the answer: the rest of the body
 * is read and thrown away, up to `DRAIN_MAX_BYTES` and within `bodyTimeoutMs`, and the connection stays
 * open for the next request. A body too slow to wait for (a 408), or declared longer than that, is not
 * drained: the connection closes after the answer. Past either bound a drain ends the same way.
 */
function afterRefusal(req: IncomingMessage, res: ServerResponse, limits: BodyLimits, timedOut = false): void {
  if (req.complete) return;
  if (timedOut || Number(headerValue(req.headers, 'content-length') ?? 0) > DRAIN_MAX_BYTES) {
    res.setHeader('Connection', 'close');
    return;
  }
  const socket = req.socket;
  let drained = 0;
  const stop = () => {
    done();
    req.pause();
    // The answer goes out first: closing before it is flushed would lose it.
    if (res.writableFinished) socket.destroy();
    else res.once('finish', () => socket.destroy());
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_MAX_BYTES) stop();
  };
  const done = () => {
    clearTimeout(timer);
    draining.delete(socket);
    req.off('data', onData).off('end', done).off('close', done);
  };
  const timer = setTimeout(stop, limits.bodyTimeoutMs);
  draining.add(socket);
  req.on('data', onData).on('end', done).on('close', done);
  req.resume();
}

/** True when the text has more than `max` opening brackets (`{` and `[`, strings included), counted natively. */
function opensMoreThan(text: string, max: number): boolean {
  let count = 0;
  for (const bracket of ['{', '[']) {
    for (let at = text.indexOf(bracket); at !== -1; at = text.indexOf(bracket, at + 1)) if (++count > max) return true;
  }
  return false;
}

/** True when arrays and objects in the JSON text nest deeper than `max` (brackets inside strings do not count). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      if (char === '\\') i++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      if (++depth > max) return true;
    } else if (char === '}' || char === ']') depth--;
  }
  return false;
}

/**
 * Node answers `Expect: 100-continue` with 100 before any middleware runs. For the MCP endpoint the
 * 100 is left to `readJsonBody`'s caller, so a request refused on its headers (too large, foreign
 * Origin) gets its final answer without the client sending the body.
 */
export function deferContinue(server: Server, isEndpoint: (req: IncomingMessage) => boolean): void {
  if (server.listenerCount('checkContinue') > 0) return;
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (!isEndpoint(req)) res.writeContinue();
    server.emit('request', req, res);
  });
}

export function expectsContinue(req: IncomingMessage): boolean {
  return /100-continue/i.test(headerValue(req.headers, 'expect') ?? '');
}

function contentCoding(req: IncomingMessage): string {
  return (headerValue(req.headers, 'content-encoding') ?? 'identity').trim().toLowerCase();
}

function tooLarge(maxBodyBytes: number): Refusal {
  return { status: 413, error: new InvalidRequestError(`Payload Too Large: the body exceeds ${maxBodyBytes} bytes`) };
}
