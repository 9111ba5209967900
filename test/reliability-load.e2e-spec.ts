import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AppModule } from '../sample/app.module.js';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { parseSse, randomSecret } from './support/interactive-http.js';
import { startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';

const CLIENTS = 50;
const SECONDS = Math.min(Number(process.env.LOAD_SECONDS ?? 10), 60);
const CAPS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };

type Kind = 'echo' | 'process' | 'onboard';

interface Tally {
  requests: Record<Kind, number>;
  completed: Record<Kind, number>;
  progressEvents: number;
  errors: string[];
  lost: number;
  /** Milliseconds per HTTP exchange, for the summary's percentiles (figures only, never asserted). */
  latencies: number[];
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

describe(`load: ${CLIENTS} concurrent clients for ${SECONDS} s of mixed calls on the sample AppModule (e2e)`, () => {
  let started: ReliabilityApp;
  // The 50 clients all connect from 127.0.0.1, so the module sees one client: its share is the whole store
  // here (a load test, not a fairness one: fair-shares.e2e-spec.ts tells clients apart by address).
  const settings = { MOCAPI_MRTR_SECRET: randomSecret(), MOCAPI_STORE_CLIENT_SHARE: '1' };
  const previous = Object.fromEntries(Object.keys(settings).map((key) => [key, process.env[key]]));

  beforeAll(async () => {
    Object.assign(process.env, settings);
    started = await startReliabilityApp({ logger: ['error'] }, AppModule as never);
  });

  afterAll(async () => {
    await started?.app.close();
    for (const [key, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });

  it(
    'zero errors, zero lost responses, every response carries its own id; the server still serves after',
    async () => {
      const url = started.url;
      const tally: Tally = {
        requests: { echo: 0, process: 0, onboard: 0 },
        completed: { echo: 0, process: 0, onboard: 0 },
        progressEvents: 0,
        errors: [],
        lost: 0,
        latencies: [],
      };

      async function exchange(body: Json): Promise<{ final: Json | undefined; notifications: Json[] }> {
        const sent = performance.now();
        const response = await fetch(url, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body) });
        const text = await response.text();
        tally.latencies.push(performance.now() - sent);
        const messages = (response.headers.get('content-type') ?? '').startsWith('text/event-stream') ? parseSse(text) : text ? [JSON.parse(text)] : [];
        if (response.status !== 200) tally.errors.push(`HTTP ${response.status} for ${body.id}: ${text.slice(0, 200)}`);
        const finals = messages.filter((message) => 'result' in message || 'error' in message);
        if (finals.length !== 1) {
          tally.lost++;
          return { final: undefined, notifications: messages };
        }
        const final = finals[0];
        if (final.id !== body.id) tally.errors.push(`response id ${JSON.stringify(final.id)} for request ${JSON.stringify(body.id)}`);
        if (final.error) tally.errors.push(`${body.id}: ${JSON.stringify(final.error)}`);
        return { final, notifications: messages.filter((message) => !('id' in message)) };
      }

      async function one(client: number, n: number, kind: Kind): Promise<void> {
        const id = `c${client}-${n}`;
        tally.requests[kind]++;
        if (kind === 'echo') {
          const message = `echo ${id}`;
          const { final } = await exchange(rpc('tools/call', { name: 'echo', arguments: { message } }, { id }));
          if (final?.result?.content?.[0]?.text === message) tally.completed.echo++;
          else if (final) tally.errors.push(`${id}: echo answered ${JSON.stringify(final).slice(0, 200)}`);
        } else if (kind === 'process') {
          const token = `t-${id}`;
          const data = 'x'.repeat(n % 50);
          const { final, notifications } = await exchange(rpc('tools/call', { name: 'process', arguments: { data } }, { id, meta: { progressToken: token } }));
          const progress = notifications.filter((message) => message.method === 'notifications/progress' && message.params.progressToken === token);
          tally.progressEvents += progress.length;
          if (progress.length !== 3 || progress.length !== notifications.length) tally.errors.push(`${id}: ${notifications.length} notifications, ${progress.length} for its token`);
          if (final?.result?.structuredContent?.result === `Done: processed ${data.length} characters`) tally.completed.process++;
          else if (final) tally.errors.push(`${id}: process answered ${JSON.stringify(final).slice(0, 200)}`);
        } else {
          const round1 = await exchange(rpc('tools/call', { name: 'onboard', arguments: {} }, { id: `${id}-r1`, meta: CAPS }));
          const state = round1.final?.result?.requestState;
          if (round1.final?.result?.resultType !== 'input_required' || typeof state !== 'string') {
            if (round1.final) tally.errors.push(`${id}: round 1 answered ${JSON.stringify(round1.final).slice(0, 200)}`);
            return;
          }
          const name = `User ${id}`;
          const round2 = await exchange(
            rpc(
              'tools/call',
              { name: 'onboard', arguments: {}, inputResponses: { 'elicitation-1': { action: 'accept', content: { name, email: `${client}.${n}@example.com` } } }, requestState: state },
              { id: `${id}-r2`, meta: CAPS },
            ),
          );
          if (round2.final?.result?.structuredContent?.message === `Welcome, ${name}!`) tally.completed.onboard++;
          else if (round2.final) tally.errors.push(`${id}: round 2 answered ${JSON.stringify(round2.final).slice(0, 200)}`);
        }
      }

      global.gc?.();
      const before = process.memoryUsage();
      const began = Date.now();
      const deadline = began + SECONDS * 1000;
      const kinds: Kind[] = ['echo', 'process', 'onboard'];
      await Promise.all(
        Array.from({ length: CLIENTS }, async (_, client) => {
          for (let n = 0; Date.now() < deadline; n++) {
            try {
              await one(client, n, kinds[(client + n) % kinds.length]);
            } catch (error) {
              tally.errors.push(`client ${client} request ${n}: ${String(error)}`);
            }
          }
        }),
      );
      const elapsed = (Date.now() - began) / 1000;
      global.gc?.();
      const after = process.memoryUsage();

      // The server still serves after the run.
      const health = await exchange(rpc('tools/call', { name: 'echo', arguments: { message: 'after load' } }, { id: 'after-load' }));
      const total = tally.requests.echo + tally.requests.process + tally.requests.onboard;
      const completed = tally.completed.echo + tally.completed.process + tally.completed.onboard;
      const sorted = [...tally.latencies].sort((a, b) => a - b);
      const percentile = (p: number) => (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0).toFixed(1);
      console.log(
        [
          `load summary: ${CLIENTS} clients, ${elapsed.toFixed(1)} s`,
          `  calls started:   echo ${tally.requests.echo}, process ${tally.requests.process}, onboard (2 rounds) ${tally.requests.onboard} = ${total} (${(total / elapsed).toFixed(0)}/s)`,
          `  calls completed: echo ${tally.completed.echo}, process ${tally.completed.process}, onboard ${tally.completed.onboard} = ${completed}`,
          `  HTTP exchanges:  ${tally.requests.echo + tally.requests.process + 2 * tally.requests.onboard}, progress events ${tally.progressEvents}`,
          `  errors ${tally.errors.length}, lost ${tally.lost}`,
          `  latency per exchange: p50 ${percentile(50)} ms, p99 ${percentile(99)} ms, max ${percentile(100)} ms`,
          `  RSS ${mb(before.rss)} → ${mb(after.rss)}, heap used ${mb(before.heapUsed)} → ${mb(after.heapUsed)} (client and server share this process)`,
          ...tally.errors.slice(0, 10).map((error) => `  error: ${error}`),
        ].join('\n'),
      );
      expect(tally.errors).toEqual([]);
      expect(tally.lost).toBe(0);
      expect(completed).toBe(total);
      expect(tally.progressEvents).toBe(3 * tally.requests.process);
      expect(Math.min(tally.requests.echo, tally.requests.process, tally.requests.onboard)).toBeGreaterThan(0);
      expect(health.final?.result?.content?.[0]?.text).toBe('after load');
    },
    (SECONDS + 30) * 1000,
  );
});
