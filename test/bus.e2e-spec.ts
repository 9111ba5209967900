import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BusUnavailableError, InMemoryMcpBus, McpFleet, McpRegistry, RedisMcpBus, type McpBus } from '../lib/index.js';
import { publishOnBus } from '../lib/bus/bus-call.js';
import { McpEras } from '../lib/era/index.js';
import type { JsonValue } from '../lib/protocol/wire.types.js';
import { eventStreamData } from '../lib/testing/event-stream.js';
import { randomSecret } from './support/interactive-http.js';
import { findBinary, missingBinary, startRedis, type LocalService } from './support/local-services.js';
import { LEGACY_HEADERS, legacySessionHeaders, postMcp, rpc, sseEvents, standardHeaders, type Json } from './support/mcp-http.js';
import { until, within } from './support/waiting.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';

const redisServer = findBinary('redis-server');

/** Messages of one topic as they arrive, awaited one at a time. */
function inbox(bus: McpBus, topic: string) {
  const messages: JsonValue[] = [];
  let wake = () => undefined as void;
  const ready = bus.subscribe(topic, (message) => {
    messages.push(message);
    wake();
  });
  let read = 0;
  return {
    ready,
    messages,
    async next(): Promise<JsonValue> {
      while (read >= messages.length) await within(new Promise<void>((resolve) => (wake = resolve)), `a message on ${topic}`, () => messages);
      return messages[read++];
    },
  };
}

describe('RedisMcpBus against a real redis-server (e2e)', () => {
  if (!redisServer) {
    missingBinary('redis-server', 'the Redis bus tests');
    return;
  }
  let redis: LocalService & { url: string };
  let one: RedisMcpBus;
  let two: RedisMcpBus;
  let elsewhere: RedisMcpBus;

  beforeAll(async () => {
    redis = await startRedis(redisServer);
    [one, two, elsewhere] = await Promise.all([RedisMcpBus.connect(redis.url), RedisMcpBus.connect(redis.url), RedisMcpBus.connect(redis.url, { keyPrefix: 'other-app:' })]);
  });

  afterAll(async () => {
    await Promise.all([one, two, elsewhere].map((bus) => bus?.close()));
    await redis?.stop();
  });

  it('a message reaches each subscribed instance once, the publisher included, and PUBLISH counts them; another prefix hears nothing', async () => {
    const [atOne, atTwo, atElsewhere] = [inbox(one, 'greetings'), inbox(two, 'greetings'), inbox(elsewhere, 'greetings')];
    await Promise.all([atOne.ready, atTwo.ready, atElsewhere.ready]);
    // A second subscription of one instance shares its connection: still one receiver there.
    const extra = inbox(two, 'greetings');
    await extra.ready;
    expect(await one.publish('greetings', { hello: 1 })).toBe(2);
    expect(await two.publish('greetings', { hello: 2 })).toBe(2);
    for (const box of [atOne, atTwo, extra]) expect([await box.next(), await box.next()]).toEqual([{ hello: 1 }, { hello: 2 }]);
    // The other app's instance got nothing: a message to it now is the first it sees.
    await elsewhere.publish('greetings', { other: true });
    expect(await atElsewhere.next()).toEqual({ other: true });
  });

  it('fails at once while Redis is down (BusUnavailableError, -31503) and delivers again once it is back, subscriptions restored by themselves', async () => {
    const atTwo = inbox(two, 'after-outage');
    await atTwo.ready;
    const port = redis.port;
    await redis.stop();
    await until(async () => {
      try {
        await publishOnBus(one, 'after-outage', { lost: true });
        return false;
      } catch (error) {
        expect(error).toBeInstanceOf(BusUnavailableError);
        expect(error).toMatchObject({ code: -31503, httpStatus: 503 });
        return true;
      }
    }, 'a publish to fail while Redis is down');
    redis = await startRedis(redisServer, port);
    // Re-sent until the subscriber has reconnected and subscribed again (nothing is replayed).
    await until(async () => (await one.publish('after-outage', { back: true }).catch(() => 0)) === 1, 'the subscriber to be subscribed again');
    await until(() => atTwo.messages.some((message) => JSON.stringify(message) === '{"back":true}'), 'the message after the outage');
    expect(atTwo.messages.every((message) => JSON.stringify(message) === '{"back":true}')).toBe(true);
  }, 60_000);
});

describe('two instances sharing one bus, in one process (e2e)', () => {
  const secret = randomSecret();
  const bus = new InMemoryMcpBus();
  let a: { app: INestApplication; url: string };
  let b: { app: INestApplication; url: string };
  const streams: AbortController[] = [];

  beforeAll(async () => {
    [a, b] = await Promise.all([startInteractiveApp({ mrtr: { secret }, store: { bus } }), startInteractiveApp({ mrtr: { secret }, store: { bus } })]);
  });

  afterAll(async () => {
    for (const stream of streams) stream.abort();
    await Promise.all([a?.app.close(), b?.app.close()]);
  });

  async function session(url: string): Promise<string> {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } } };
    const opened = await postMcp(url, initialize, { headers: LEGACY_HEADERS, skipSchema: true });
    return opened.headers.get('mcp-session-id')!;
  }

  async function answer(url: string, sessionId: string, id: unknown, result: Json) {
    return postMcp(url, { jsonrpc: '2.0', id, result }, { headers: legacySessionHeaders(sessionId), skipSchema: true });
  }

  it("a 2025 answer posted to B reaches the call on A (202); an answer no call awaits is 400, on either", async () => {
    const sessionId = await session(a.url);
    const abort = new AbortController();
    streams.push(abort);
    const body = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'onboard', arguments: {} } };
    const call = await fetch(a.url, { method: 'POST', headers: sessionPost(sessionId), body: JSON.stringify(body), signal: abort.signal });
    const next = sseEvents(call);
    const question = await next();
    expect(question.method).toBe('elicitation/create');
    const delivered = await answer(b.url, sessionId, question.id, { action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } });
    expect(delivered.status).toBe(202);
    expect((await next()).result.structuredContent).toEqual({ message: 'Welcome, Ada!' });
    // Answered already: no call awaits it, here or there.
    for (const url of [a.url, b.url]) expect((await answer(url, sessionId, question.id, { action: 'accept', content: {} })).status).toBe(400);
  });

  it('an answer another session posts never reaches the call (400)', async () => {
    const [owner, other] = [await session(a.url), await session(b.url)];
    const abort = new AbortController();
    streams.push(abort);
    const body = { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'onboard', arguments: {} } };
    const call = await fetch(a.url, { method: 'POST', headers: sessionPost(owner), body: JSON.stringify(body), signal: abort.signal });
    const question = await sseEvents(call)();
    expect((await answer(b.url, other, question.id, { action: 'accept', content: { name: 'Eve', email: 'eve@example.com' } })).status).toBe(400);
    abort.abort();
  });

  it('a 2025 notifications/cancelled posted to B stops the call running on A: its stream ends without a response', async () => {
    const sessionId = await session(a.url);
    const body = { jsonrpc: '2.0', id: 'to-cancel', method: 'tools/call', params: { name: 'onboard', arguments: {} } };
    const call = await fetch(a.url, { method: 'POST', headers: sessionPost(sessionId), body: JSON.stringify(body) });
    const data = eventStreamData(call.body!);
    const question = JSON.parse((await within(data.next(), 'the question')).value as string);
    expect(question.method).toBe('elicitation/create');
    expect(a.app.get(McpEras).awaitedClientAnswers).toBe(1);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'to-cancel', reason: 'changed my mind' } };
    expect((await postMcp(b.url, cancel, { headers: legacySessionHeaders(sessionId), skipSchema: true })).status).toBe(202);
    const rest: string[] = [];
    await within((async () => {
      for await (const event of { [Symbol.asyncIterator]: () => data }) rest.push(event);
    })(), "the call's stream to end");
    expect(rest).toEqual([]);
    expect(a.app.get(McpEras).awaitedClientAnswers).toBe(0);
  });

  it('McpFleet runs an action on both instances; each listener hears its list change once, from its own instance', async () => {
    const fleets = [a, b].map(({ app }) => app.get(McpFleet));
    for (const [index, fleet] of fleets.entries()) {
      const registry = [a, b][index].app.get(McpRegistry);
      fleet.on('enable-beta', () => registry.addTool({ name: 'beta', description: 'A beta tool' }, () => 'beta'));
    }
    const listeners = await Promise.all(
      [a, b].map(async ({ url }, index) => {
        const abort = new AbortController();
        streams.push(abort);
        const listen = rpc('subscriptions/listen', { notifications: { toolsListChanged: true, resourceSubscriptions: ['r://sentinel'] } }, { id: `fleet-${index}` });
        const response = await fetch(url, { method: 'POST', headers: standardHeaders(listen), body: JSON.stringify(listen), signal: abort.signal });
        const next = sseEvents(response);
        expect((await next()).method).toBe('notifications/subscriptions/acknowledged');
        return next;
      }),
    );
    expect(await fleets[0].everywhere('enable-beta')).toBe(2);
    await until(() => b.app.get(McpRegistry).listTools().some((tool) => tool.definition.name === 'beta'), 'the tool on B');
    expect(a.app.get(McpRegistry).listTools().some((tool) => tool.definition.name === 'beta')).toBe(true);
    // A sentinel change after it: the next message after the one list change must be the sentinel.
    a.app.get(McpRegistry).notifyResourceUpdated('r://sentinel');
    for (const next of listeners) {
      expect((await next()).method).toBe('notifications/tools/list_changed');
      expect(await next()).toMatchObject({ method: 'notifications/resources/updated', params: { uri: 'r://sentinel' } });
    }
  });

  it('a bus that cannot be reached answers a 2025 answer held nowhere here with -31503 (503), at once', async () => {
    const broken: McpBus = {
      publish: () => Promise.reject(new Error('connection refused')),
      subscribe: async () => async () => undefined,
    };
    const c = await startInteractiveApp({ mrtr: { secret }, store: { bus: broken } });
    try {
      const sessionId = await session(c.url);
      const refused = await answer(c.url, sessionId, 'a-question-held-elsewhere', { action: 'accept', content: {} });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.error).toMatchObject({ code: -31503, message: "Service Unavailable: the instances' shared bus (Redis) is unreachable; retry later" });
    } finally {
      await c.app.close();
    }
  });
});

/** The headers of a 2025 client's POST in its session. */
function sessionPost(sessionId: string): Record<string, string> {
  return { accept: 'application/json, text/event-stream', 'content-type': 'application/json', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
}
