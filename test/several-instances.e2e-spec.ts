import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { randomSecret, sleep } from './support/interactive-http.js';
import { findBinary, freePort, missingBinary, startNginxWith, startRedis, type LocalService } from './support/local-services.js';
import { callMcp, legacySessionHeaders, openLegacySession, postMcp, rpc, sseEvents, standardHeaders } from './support/mcp-http.js';
import { createTask, taskCall } from './support/tasks-http.js';
import { StreamText, until, within } from './support/waiting.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The sample plus two probes, on the built library (`npm ci` builds dist/; `npm run build` after a change). */
const FIXTURE = 'test/src/bus-instance.fixture.mjs';
/** The compose example's nginx file (docs/operations/several-instances.md): round-robin, no hash, no sticky cookie. */
const NGINX_SITE = fileURLToPath(new URL('../examples/several-instances/nginx.conf', import.meta.url));
const redisServer = findBinary('redis-server');
const nginx = findBinary('nginx');

const WATCHED = 'docs://bus/watched';
const SENTINEL = 'docs://bus/sentinel';

/** What the v1 SDK client answers to each question of the sample's tools. */
const ANSWERS: Record<string, Record<string, string | boolean>> = {
  'Please enter your details': { name: 'Ada', email: 'ada@example.com' },
  'Pick a plan': { plan: 'team' },
  'Confirm upgrade to team?': { confirmed: true },
  'Step 1: project name?': { project: 'bus' },
  'Step 2: language?': { language: 'java' },
};

interface Instance {
  name: string;
  child: ChildProcess;
  port: number;
  url: string;
  out: StreamText;
}

async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  // MCP_HTTP_ADAPTER passes through: `npm run test:fastify` runs the instances on Fastify.
  const child = spawn(process.execPath, [FIXTURE], { cwd: ROOT, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = new StreamText(`instance ${name}`, child.stdout!, child.stderr!);
  try {
    await out.contains(`probe listening ${port}`);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  return { name, child, port, url: `http://127.0.0.1:${port}/mcp`, out };
}

const alive = (instance: Instance) => instance.child.exitCode === null && instance.child.signalCode === null;

/** A v1 SDK (2025) client through `url`, answering every question of the sample. */
async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'several-instances-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    const content = ANSWERS[request.params.message];
    if (!content) throw new Error(`unexpected question: ${request.params.message}`);
    return { action: 'accept', content };
  });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const sessionIdOf = (client: Client) => (client.transport as StreamableHTTPClientTransport).sessionId!;

/** One onboard, one upgrade-plan (two questions) and one wizard (questions between progress); each checked. */
async function elicitationCalls(client: Client, options: RequestOptions = {}): Promise<number> {
  const onboarded = await client.callTool({ name: 'onboard', arguments: {} }, undefined, options);
  expect(onboarded.structuredContent).toEqual({ message: 'Welcome, Ada!' });
  const upgraded = await client.callTool({ name: 'upgrade-plan', arguments: { userId: 'u-bus' } }, undefined, options);
  expect(upgraded.structuredContent).toEqual({ upgraded: true, plan: 'team' });
  const progress: number[] = [];
  const wizard = await client.callTool({ name: 'wizard', arguments: {} }, undefined, { ...options, onprogress: (event) => progress.push(event.progress) });
  expect(wizard.structuredContent).toEqual({ project: 'bus', language: 'java' });
  expect(progress).toEqual([1, 2, 3]);
  return 3;
}

describe('three instances behind round-robin nginx, one real Redis (e2e)', () => {
  if (!redisServer || !nginx) {
    missingBinary(redisServer ? 'nginx' : 'redis-server', 'the several-instances test');
    return;
  }

  let redis: LocalService & { url: string };
  let proxy: LocalService & { url: string };
  let instances: Instance[] = [];
  let a: Instance;
  let b: Instance;
  let c: Instance;
  const streams: AbortController[] = [];

  beforeAll(async () => {
    redis = await startRedis(redisServer);
    const env = {
      MOCAPI_MRTR_SECRET: randomSecret(),
      MOCAPI_STORE_REDIS_URL: redis.url,
      // A cancel may only arrive over the bus: the lease is renewed every 20 minutes.
      MOCAPI_TASKS_LEASE: 'PT1H',
      // An answer that never arrives (posted to an instance as it was killed) fails its call in 8 s, not 5 minutes.
      MOCAPI_SESSION_INPUT_TIMEOUT: 'PT8S',
      MOCAPI_PLAYGROUND: 'false',
    };
    instances = await Promise.all(['a', 'b', 'c'].map((name) => startInstance(name, env)));
    [a, b, c] = instances;
    proxy = await startNginxWith(nginx, NGINX_SITE, instances.map((instance) => instance.port));
  }, 60_000);

  afterAll(async () => {
    for (const stream of streams) stream.abort();
    for (const instance of instances) if (alive(instance)) instance.child.kill('SIGKILL');
    await proxy?.stop();
    await redis?.stop();
  });

  it('the v1 SDK completes every elicitation call with progress, answers landing on any instance', async () => {
    let completed = 0;
    // 10 sessions × 3 calls: 20 onboard and upgrade-plan calls, and 10 wizards mixing progress and questions.
    for (let session = 0; session < 10; session++) {
      const client = await connect(proxy.url);
      try {
        completed += await elicitationCalls(client);
      } finally {
        await client.close();
      }
    }
    expect(completed).toBe(30);
  }, 120_000);

  it('notifyResourceUpdated() on A reaches a listen stream on A and on B and a 2025 GET stream on C, once each', async () => {
    // Modern listen streams on A (the instance of the change) and B.
    const listeners = await Promise.all(
      [a, b].map(async (instance, index) => {
        const abort = new AbortController();
        streams.push(abort);
        const body = rpc('subscriptions/listen', { notifications: { resourceSubscriptions: [WATCHED, SENTINEL] } }, { id: `listen-${index}` });
        const response = await fetch(instance.url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body), signal: abort.signal });
        expect(response.status).toBe(200);
        const next = sseEvents(response);
        expect((await next()).method).toBe('notifications/subscriptions/acknowledged');
        return next;
      }),
    );
    // A 2025 session opened on C, its GET stream on C, its subscriptions made through A.
    const { sessionId } = await openLegacySession(c.url);
    const abort = new AbortController();
    streams.push(abort);
    const get = await fetch(c.url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      signal: abort.signal,
    });
    expect(get.status).toBe(200);
    const legacy = sseEvents(get);
    for (const [id, uri] of [WATCHED, SENTINEL].entries()) {
      const subscribed = await postMcp(a.url, { jsonrpc: '2.0', id: id + 1, method: 'resources/subscribe', params: { uri } }, { headers: legacySessionHeaders(sessionId), skipSchema: true });
      expect(subscribed.body).toEqual({ jsonrpc: '2.0', id: id + 1, result: {} });
    }

    const touched = await callMcp(a.url, 'tools/call', { name: 'touch', arguments: { uri: WATCHED } });
    expect(touched.body.result.content[0].text).toBe(`touched ${WATCHED}`);
    // Then a second change: each stream's next message after the first update must be this one, so none got the first twice.
    await callMcp(a.url, 'tools/call', { name: 'touch', arguments: { uri: SENTINEL } });
    for (const [index, next] of listeners.entries()) {
      const meta = { 'io.modelcontextprotocol/subscriptionId': `listen-${index}` };
      expect(await next()).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: WATCHED, _meta: meta } });
      expect(await next()).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: SENTINEL, _meta: meta } });
    }
    expect(await legacy()).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: WATCHED } });
    expect(await legacy()).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: SENTINEL } });
  }, 60_000);

  it('a task cancelled through B stops on A at once, not at the next lease renewal (an hour away here)', async () => {
    const delays: number[] = [];
    for (let run = 0; run < 5; run++) {
      const tag = `cancel-${run}`;
      const created = await createTask(a.url, 'hold', { tag });
      const taskId = created.body.result?.taskId;
      expect(typeof taskId).toBe('string');
      await a.out.contains(`probe entered ${tag}\n`);
      const sent = performance.timeOrigin + performance.now();
      const cancelled = await taskCall(b.url, 'tasks/cancel', { taskId });
      expect(cancelled.body.error).toBeUndefined();
      const [, at] = await a.out.contains(new RegExp(`probe aborted ${tag} ([\\d.]+)\\n`));
      delays.push(Number(at) - sent);
      expect((await taskCall(c.url, 'tasks/get', { taskId })).body.result.status).toBe('cancelled');
    }
    // The figure, for the record (bench/run.mjs measures the bus's latency as a distribution).
    console.log(`tasks/cancel on B → the handler's signal on A: ${delays.map((ms) => ms.toFixed(1)).join(', ')} ms`);
  }, 60_000);

  it('with redis-server stopped for 5 s: no crash, stateless calls unaffected, store and bus calls refused at once (503), all back by themselves', async () => {
    const client = await connect(proxy.url);
    const port = redis.port;
    await redis.stop();
    try {
      // Calls of 2026-07-28 without requestState need neither store nor bus: all succeed, on every instance (round-robin).
      for (let call = 0; call < 6; call++) {
        const hello = await callMcp(proxy.url, 'tools/call', { name: 'hello', arguments: { name: `outage-${call}` } });
        expect(hello.status).toBe(200);
        expect(hello.body.result.isError).toBeFalsy();
      }
      // A 2025 session's request reads the store (was the session ended?): refused with the clear error, not a hang.
      await expect(client.listTools()).rejects.toThrow(/503|Service Unavailable|-31503/);
      const raw = await postMcp(b.url, { jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }, { headers: legacySessionHeaders(sessionIdOf(client)), skipSchema: true });
      expect(raw.status).toBe(503);
      expect(raw.headers.get('retry-after')).toBe('1');
      expect(raw.body.error).toMatchObject({ code: -31503, message: "Service Unavailable: the server's store (Redis) is unreachable; retry later" });
      // The rest of the 5 s, defined in time by the scenario itself.
      await sleep(5_000);
      expect(instances.every(alive)).toBe(true);
    } finally {
      redis = await startRedis(redisServer, port);
    }
    // Back by themselves: the store answers again on every instance. The Redis that came back (no persistence)
    // lost its records, so the session opened before is refused as unknown (404: whether it was ended is lost),
    // and every instance's bus connection has subscribed again (Redis counts the subscribers of the answers
    // channel; an empty message is ignored by each).
    const sessionId = sessionIdOf(client);
    const ping = (url: string) => postMcp(url, { jsonrpc: '2.0', id: 10, method: 'ping', params: {} }, { headers: legacySessionHeaders(sessionId), skipSchema: true });
    await until(async () => (await Promise.all(instances.map(async ({ url }) => (await ping(url)).status))).every((status) => status === 404), "every instance's store to answer again");
    expect((await ping(a.url)).body.error.code).toBe(-32001);
    await client.close();
    const raw = new Redis(redis.url);
    try {
      await until(async () => (await raw.publish('nest-mcp:bus:answers', '{}')) === instances.length, 'every instance to listen on the bus again');
    } finally {
      raw.disconnect();
    }
    // A new session works through round-robin. Each instance's publishing connection reconnects on its own
    // schedule (ioredis backs off up to 2 s), and an answer relayed before the holder can publish its receipt is
    // refused (503): the client's bound ends that try.
    const fresh = await connect(proxy.url);
    await until(() => elicitationCalls(fresh, { timeout: 3_000 }).then(() => true, () => false), 'an elicitation through round-robin to complete again');
    expect(await elicitationCalls(fresh)).toBe(3);
    await fresh.close();
  }, 120_000);

  it('kill -9 of one instance under load: every call completes or fails with a clear error, and the survivors keep completing', async () => {
    const outcomes: { ok: boolean; afterKill: boolean; error?: string }[] = [];
    let killed = false;
    // A call whose stream broke with its instance is given up by the client after 8 s (the SDK's own bound).
    const bounded = { timeout: 8_000 };
    const worker = async () => {
      for (let round = 0; round < 6; round++) {
        const afterKill = killed;
        let client: Client | undefined;
        try {
          client = await connect(proxy.url);
          await within(elicitationCalls(client, bounded), 'one round of the load (each call bounded by the client)');
          outcomes.push({ ok: true, afterKill });
        } catch (error) {
          outcomes.push({ ok: false, afterKill, error: error instanceof Error ? error.message : String(error) });
        } finally {
          await client?.close().catch(() => undefined);
        }
      }
    };
    const load = Promise.all([worker(), worker(), worker()]);
    await until(() => outcomes.length >= 3, 'the load to be under way', () => outcomes);
    c.child.kill('SIGKILL');
    killed = true;
    // Each round is bounded above; the load ends when every worker's rounds have.
    await load;

    expect(outcomes).toHaveLength(18);
    // A failed call says what failed (an HTTP status or a JSON-RPC error), never an empty message.
    for (const failure of outcomes.filter((outcome) => !outcome.ok)) expect(failure.error).toMatch(/\w{3,}/);
    // Every call that completed was checked whole (results and progress) by elicitationCalls.
    expect(outcomes.filter((outcome) => outcome.ok && outcome.afterKill).length).toBeGreaterThan(0);
    expect(alive(a) && alive(b)).toBe(true);
    // Sessions started now, through the same balancer, complete.
    const client = await connect(proxy.url);
    try {
      expect(await elicitationCalls(client)).toBe(3);
    } finally {
      await client.close();
    }
  }, 180_000);
});
