import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import getRawBody from 'raw-body';
import { InvalidRequestError, ParseError, type McpError } from '../../protocol/mcp.error.js';
import type { OriginPolicy } from './origin.policy.js';
import { headerValue } from './request-headers.js';

/** An answer given instead of serving the request. */
export interface Refusal {
  status: number;
  error: McpError;
}

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

const DECODERS = new Map<string, () => Gunzip | ReturnType<typeof createInflate> | ReturnType<typeof createBrotliDecompress>>([
  ['gzip', createGunzip],
  ['x-gzip', createGunzip],
  ['deflate', createInflate],
  ['br', createBrotliDecompress],
]);

/** True when the `Accept` header offers `type`: by name, or by a wildcard of its family or of all types. */
export function acceptOffers(accept: string | undefined, type: string): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0].trim().toLowerCase());
  return types.includes(type) || types.includes(`${type.split('/')[0]}/*`) || types.includes('*/*');
}

function acceptsBoth(accept: string | undefined): boolean {
  return acceptOffers(accept, 'application/json') && acceptOffers(accept, 'text/event-stream');
}

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
  const [mediaType, ...parameters] = (headerValue(req.headers, 'content-type') ?? '').split(';');
  if (mediaType.trim().toLowerCase() !== 'application/json') {
    return { status: 415, error: new InvalidRequestError('Unsupported Media Type: the body must be application/json') };
  }
  const charset = parameters.map((parameter) => /^\s*charset\s*=\s*"?([^"]*)"?\s*$/i.exec(parameter)?.[1]).find(Boolean);
  if (charset !== undefined && !['utf-8', 'utf8'].includes(charset.toLowerCase())) {
    return { status: 415, error: new InvalidRequestError('Unsupported Media Type: the body must be UTF-8 JSON') };
  }
  const coding = contentCoding(req);
  if (coding !== 'identity' && !DECODERS.has(coding)) {
    return { status: 415, error: new InvalidRequestError(`Unsupported Media Type: Content-Encoding "${coding}" is not supported`) };
  }
  if (Number(headerValue(req.headers, 'content-length') ?? 0) > maxBodyBytes) return tooLarge(maxBodyBytes);
  return undefined;
}

/**
 * Reads and parses the JSON body, stopping at `maxBodyBytes` (after decompression): a larger body is
 * not read to its end. The nesting is checked on the text, before parsing, so depth costs no recursion.
 */
export async function readJsonBody(req: IncomingMessage, limits: { maxBodyBytes: number; maxJsonDepth: number }): Promise<{ body: unknown } | Refusal> {
  const coding = contentCoding(req);
  const decoder = DECODERS.get(coding)?.();
  let stream: Readable = req;
  if (decoder) stream = req.pipe(decoder);
  let text: string;
  try {
    const bytes = await getRawBody(stream, { limit: limits.maxBodyBytes, length: decoder ? undefined : headerValue(req.headers, 'content-length') });
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    if (decoder) {
      req.unpipe(decoder);
      decoder.destroy();
    }
    if ((error as { type?: unknown }).type === 'entity.too.large') return tooLarge(limits.maxBodyBytes);
    return { status: 400, error: new ParseError('Parse error: the body could not be read as UTF-8 JSON') };
  }
  if (text.trim() === '') return { body: undefined };
  // A text of n characters cannot nest deeper than n/2 levels: short bodies need no scan.
  if (text.length > limits.maxJsonDepth * 2 && nestsDeeperThan(text, limits.maxJsonDepth)) {
    return { status: 400, error: new InvalidRequestError(`Invalid Request: the body is nested deeper than ${limits.maxJsonDepth} levels`) };
  }
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { status: 400, error: new ParseError() };
  }
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
 * Express runs middleware in `app.router.stack` order, and Nest registers its body parsers before
 * any module code runs, so a plain `use()` would come after them. Moving the new layer to the front
 * is the one place that relies on Express's router internals; it throws at startup if they change
 * (and the hostile-input e2e tests check that a foreign Origin is refused before the body is read).
 */
export function placeAheadOfBodyParsers(expressApp: unknown, middleware: Middleware): void {
  const app = expressApp as { use(handler: Middleware): void; router?: { stack?: Array<{ handle?: unknown }> } };
  app.use(middleware);
  const stack = app.router?.stack;
  if (!Array.isArray(stack) || stack.at(-1)?.handle !== middleware) {
    throw new Error('McpModule: cannot place the MCP endpoint checks ahead of the body parsers (Express router internals changed)');
  }
  stack.unshift(stack.pop()!);
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
