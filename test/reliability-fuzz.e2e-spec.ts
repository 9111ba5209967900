import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { InvalidParamsError } from '../lib/protocol/mcp.error.js';
import { RequestStateCodec } from '../lib/mrtr/index.js';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { leaksInternals, startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';
import { PATIENCE_MS } from './support/waiting.js';

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2_147_483_647);
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const VISIBLE_ASCII = /^[\x20-\x7e]*$/;
/** Methods that answer promptly (subscriptions/listen is a long-lived stream by design, so left out). */
const METHODS = ['server/discover', 'tools/list', 'tools/call', 'prompts/list', 'prompts/get', 'resources/list', 'resources/read', 'resources/templates/list', 'completion/complete', 'notifications/cancelled', 'ping'];
const TOOLS = ['echo', 'hello', 'shout', 'process', 'onboard', 'upgrade-plan', 'wizard', 'nope'];

interface Outcome {
  status: number;
  text: string;
}

/** Every answer: never 5xx, and the body is empty (202/204) or one JSON-RPC response (or an SSE stream of messages). */
function checkOutcome(outcome: Outcome, label: string): void {
  const problem = describeProblem(outcome);
  if (problem) throw new Error(`${label}: ${problem} (HTTP ${outcome.status}) ${outcome.text.slice(0, 300)}`);
}

function describeProblem({ status, text }: Outcome): string | undefined {
  if (status >= 500) return 'a 5xx status';
  const leak = leaksInternals(text);
  if (leak) return `the body leaks ${leak}`;
  if (text === '') return status === 202 || status === 204 ? undefined : 'an empty body';
  let messages: Json[];
  if (text.startsWith('event:') || text.startsWith('data:')) {
    messages = text
      .split('\n\n')
      .filter((event) => event.includes('data:'))
      .map((event) => JSON.parse(event.split('\n').find((line) => line.startsWith('data:'))!.slice(5)));
  } else {
    try {
      messages = [JSON.parse(text)];
    } catch {
      return 'a body that is not JSON';
    }
  }
  const final = messages.at(-1);
  if (!final || final.jsonrpc !== '2.0') return 'a message without jsonrpc 2.0';
  if ('error' in final) {
    if (!Number.isInteger(final.error?.code) || typeof final.error?.message !== 'string') return 'a malformed error object';
    if (final.error.code === -32603) return 'an internal error';
    return undefined;
  }
  if (!('result' in final) || typeof final.result !== 'object') return 'neither result nor error';
  return undefined;
}

async function post(url: string, body: string, headers: Record<string, string>): Promise<Outcome> {
  const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(PATIENCE_MS) });
  return { status: response.status, text: await response.text() };
}

/** Standard headers for an arbitrary value: only what fetch can carry (visible ASCII). */
function headersFor(value: Json): Record<string, string> {
  const headers = standardHeaders(value && typeof value === 'object' ? value : {});
  for (const [name, header] of Object.entries(headers)) if (!VISIBLE_ASCII.test(header)) delete headers[name];
  return headers;
}

describe('fuzzing the HTTP endpoint (e2e, fast-check)', () => {
  let started: ReliabilityApp;
  let url: string;
  let token: string;

  beforeAll(async () => {
    started = await startReliabilityApp({ limits: { callTimeout: 'PT2S' }, logger: false });
    url = started.url;
    const round1 = await fetch(url, {
      method: 'POST',
      headers: standardHeaders(rpc('tools/call', { name: 'upgrade-plan' })),
      body: JSON.stringify(rpc('tools/call', { name: 'upgrade-plan', arguments: { userId: 'fuzz' } }, { meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } })),
    });
    token = ((await round1.json()) as Json).result.requestState;
    expect(typeof token).toBe('string');
    console.log(`fast-check seed ${SEED} (FUZZ_SEED to replay), ${RUNS} runs per property`);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  async function healthy(): Promise<void> {
    const body = rpc('tools/call', { name: 'echo', arguments: { message: 'alive' } });
    const response = await fetch(url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Json).result.content).toEqual([{ type: 'text', text: 'alive' }]);
  }

  it('arbitrary JSON values as the POST body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        checkOutcome(await post(url, JSON.stringify(value), headersFor(value)), `body ${JSON.stringify(value).slice(0, 200)}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    await healthy();
  });

  it('arbitrary strings as the POST body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'binary', maxLength: 200 }), fc.json()), async (text) => {
        checkOutcome(await post(url, text, headersFor(rpc('tools/list'))), `body ${JSON.stringify(text).slice(0, 200)}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    await healthy();
  });

  it('arbitrary JSON-RPC envelopes (jsonrpc / id / method / params mutations)', async () => {
    const anything = fc.jsonValue({ maxDepth: 3 });
    const meta = fc.oneof(
      fc.constant(rpc('tools/list').params._meta),
      fc.record({ 'io.modelcontextprotocol/protocolVersion': fc.oneof(fc.constant('2026-07-28'), fc.string()), 'io.modelcontextprotocol/clientCapabilities': anything }, { requiredKeys: [] }),
      anything,
    );
    const params = fc.oneof(
      fc.record(
        {
          _meta: meta,
          name: fc.oneof(fc.constantFrom(...TOOLS), fc.string(), anything),
          arguments: fc.oneof(fc.dictionary(fc.constantFrom('message', 'name', 'data', 'userId', 'x'), anything), anything),
          cursor: fc.oneof(fc.string(), anything),
          uri: fc.oneof(fc.constant('docs://readme'), fc.string(), anything),
          requestId: fc.oneof(fc.integer(), fc.string(), anything),
          inputResponses: fc.oneof(fc.dictionary(fc.string(), anything, { maxKeys: 40 }), anything),
          requestState: fc.oneof(fc.constant(token), fc.string(), anything),
        },
        { requiredKeys: ['_meta'] },
      ),
      anything,
    );
    const envelope = fc.record(
      {
        jsonrpc: fc.oneof(fc.constant('2.0'), fc.constant('2.0'), anything),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), anything),
        method: fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 30 }), anything),
        params,
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(envelope, fc.boolean(), async (body, withHeaders) => {
        const headers = withHeaders ? headersFor(body) : { accept: 'application/json, text/event-stream', 'content-type': 'application/json' };
        checkOutcome(await post(url, JSON.stringify(body), headers), `envelope ${JSON.stringify(body).slice(0, 300)}`);
      }),
      { numRuns: RUNS, seed: SEED },
    );
    await healthy();
  });

  it('arbitrary strings and mutations as requestState', async () => {
    const mutation = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.base64String({ maxLength: 400 }).map((text) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')),
      fc.nat({ max: token.length - 1 }).chain((at) => fc.constantFrom('A', 'B', '_', '-', '0', '=', '.').map((char) => token.slice(0, at) + char + token.slice(at + 1))),
      fc.nat({ max: token.length }).map((at) => token.slice(0, at)),
      fc.string({ maxLength: 20 }).map((tail) => token + tail),
      fc.jsonValue({ maxDepth: 2 }),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async (requestState) => {
        const body = rpc(
          'tools/call',
          { name: 'upgrade-plan', arguments: { userId: 'fuzz' }, inputResponses: { 'elicitation-1': { action: 'accept', content: { plan: 'pro' } } }, requestState },
          { meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } },
        );
        const outcome = await post(url, JSON.stringify(body), standardHeaders(body));
        checkOutcome(outcome, `requestState ${JSON.stringify(requestState).slice(0, 200)}`);
        // null reads as "no requestState" (a fresh first round); everything else that is not the token is refused.
        if (requestState !== token && requestState !== null) {
          const reply = JSON.parse(outcome.text) as Json;
          expect(reply.error?.code).toBe(-32602);
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
    await healthy();
  });
});

describe('fuzzing RequestStateCodec.decode directly (fast-check)', () => {
  const secret = randomBytes(32);
  const codec = new RequestStateCodec(secret, 60_000, Date.now, { maxTokenLength: 2048 });
  const token = codec.encode({ method: 'tools/call', target: 'upgrade-plan', argsDigest: 'digest', rounds: [{ fingerprint: 'f1', responses: { a: { action: 'accept' } } }], pending: { fingerprint: 'f2', keys: ['elicitation-2'] } });

  function onlyInvalidParams(input: unknown): void {
    try {
      codec.decode(input);
    } catch (error) {
      if (!(error instanceof InvalidParamsError)) throw new Error(`decode(${JSON.stringify(input)?.slice(0, 100)}) threw ${String(error)}`);
      expect(error.code).toBe(-32602);
      return;
    }
    if (input !== token) throw new Error(`decode accepted a token it did not issue: ${JSON.stringify(input)?.slice(0, 100)}`);
  }

  it('decodes its own token', () => {
    expect(codec.decode(token).target).toBe('upgrade-plan');
  });

  it('anything at all: only InvalidParamsError', () => {
    fc.assert(fc.property(fc.anything(), (input) => onlyInvalidParams(input)), { numRuns: 1000, seed: SEED });
  });

  it('arbitrary strings and base64url text: only InvalidParamsError', () => {
    const base64url = fc.base64String({ maxLength: 3000 }).map((text) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
    fc.assert(fc.property(fc.oneof(fc.string({ maxLength: 3000 }), fc.string({ unit: 'binary' }), base64url), (input) => onlyInvalidParams(input)), { numRuns: 1000, seed: SEED });
  });

  it('mutations of a real token: only InvalidParamsError, never accepted', () => {
    const mutated = fc.oneof(
      fc.tuple(fc.nat({ max: token.length - 1 }), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/.'.split(''))).map(([at, char]) => token.slice(0, at) + char + token.slice(at + 1)),
      fc.nat({ max: token.length }).map((at) => token.slice(0, at)),
      fc.tuple(fc.nat({ max: token.length }), fc.string({ minLength: 1, maxLength: 8 })).map(([at, text]) => token.slice(0, at) + text + token.slice(at)),
      fc.nat({ max: token.length - 2 }).map((at) => token.slice(0, at) + token[at + 1] + token[at] + token.slice(at + 2)),
      fc.string({ minLength: 1, maxLength: 3000 }).map((tail) => token + tail),
    );
    fc.assert(fc.property(mutated, (input) => onlyInvalidParams(input)), { numRuns: 2000, seed: SEED });
  });

  it('a token sealed with another key or expired: InvalidParamsError', () => {
    const other = new RequestStateCodec(randomBytes(32), 60_000);
    expect(() => other.decode(token)).toThrow(InvalidParamsError);
    const later = new RequestStateCodec(secret, 60_000, () => Date.now() + 120_000);
    expect(() => later.decode(token)).toThrow(InvalidParamsError);
  });
});
