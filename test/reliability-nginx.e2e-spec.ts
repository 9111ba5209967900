import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { parseSse, randomSecret } from './support/interactive-http.js';
import { findBinary, missingBinary, startNginx, type LocalService } from './support/local-services.js';
import { startReliabilityApp, waitFor, type ReliabilityApp } from './src/reliability-fixture.js';

const CAPS = { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } };
const nginx = findBinary('nginx');

describe('scale-out: two instances behind nginx (e2e)', () => {
  if (!nginx) {
    missingBinary('nginx', 'the nginx scale-out test');
    return;
  }

  const secret = randomSecret();
  let proxy: LocalService | undefined;
  let a: ReliabilityApp;
  let b: ReliabilityApp;
  let url: string;
  let buffered: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([startReliabilityApp({ mrtr: { secret }, instance: 'a' }), startReliabilityApp({ mrtr: { secret }, instance: 'b' })]);
    const started = await startNginx(nginx, [a.port, b.port]);
    ({ url, buffered } = started);
    proxy = started;
  }, 20_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([a?.app.close(), b?.app.close()]);
  });

  async function call(target: string, body: Json): Promise<{ instance: string | null; messages: Json[]; final: Json }> {
    const response = await fetch(target, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body) });
    const text = await response.text();
    const messages = (response.headers.get('content-type') ?? '').startsWith('text/event-stream') ? parseSse(text) : [JSON.parse(text)];
    return { instance: response.headers.get('x-instance'), messages, final: messages.at(-1) };
  }

  it('proxies to both instances round-robin', async () => {
    const seen = new Set<string | null>();
    for (let i = 0; i < 4; i++) seen.add((await call(url, rpc('tools/call', { name: 'echo', arguments: { message: `rr ${i}` } }))).instance);
    expect([...seen].sort()).toEqual(['a', 'b']);
  });

  it('the 3-round upgrade-plan elicitation lands on both instances and completes', async () => {
    const userId = `u-nginx-${Date.now()}`;
    const landed: Array<string | null> = [];
    const body = (extra: Record<string, unknown>) => rpc('tools/call', { name: 'upgrade-plan', arguments: { userId }, ...extra }, { meta: CAPS });
    const round1 = await call(url, body({}));
    landed.push(round1.instance);
    expect(round1.final.result.resultType).toBe('input_required');
    const round2 = await call(url, body({ inputResponses: { 'elicitation-1': { action: 'accept', content: { plan: 'team' } } }, requestState: round1.final.result.requestState }));
    landed.push(round2.instance);
    expect(round2.final.result.resultType).toBe('input_required');
    const round3 = await call(url, body({ inputResponses: { 'elicitation-2': { action: 'accept', content: { confirmed: true } } }, requestState: round2.final.result.requestState }));
    landed.push(round3.instance);
    expect(round3.final.result).toMatchObject({ resultType: 'complete', structuredContent: { upgraded: true, plan: 'team' } });
    expect(new Set(landed)).toEqual(new Set(['a', 'b']));
    console.log(`upgrade-plan rounds through nginx landed on: ${landed.join(', ')}`);
  });

  /** Streams a slow progress call and records when each event arrived. */
  async function timedProgress(target: string, tag: string): Promise<{ arrivals: Array<{ at: number; message: Json }>; instance: string | null; accel: string | null }> {
    const body = rpc('tools/call', { name: 'drip', arguments: { tag, steps: 4, gapMs: 150 } }, { meta: { progressToken: `p-${tag}` } });
    const began = Date.now();
    const response = await fetch(target, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body) });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    const arrivals: Array<{ at: number; message: Json }> = [];
    let buffer = '';
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      buffer += decoder.decode(chunk.value, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        for (const message of parseSse(buffer.slice(0, end + 2))) arrivals.push({ at: Date.now() - began, message });
        buffer = buffer.slice(end + 2);
      }
    }
    return { arrivals, instance: response.headers.get('x-instance'), accel: response.headers.get('x-accel-buffering') };
  }

  function expectIncremental(arrivals: Array<{ at: number; message: Json }>): void {
    const progress = arrivals.filter(({ message }) => message.method === 'notifications/progress');
    const final = arrivals.at(-1)!;
    expect(progress.map(({ message }) => message.params.progress)).toEqual([1, 2, 3, 4]);
    expect(final.message.result.content[0].text).toMatch(/^drip .* done$/);
    // The tool takes ~600 ms; with buffering every event would arrive together with the response.
    expect(final.at - progress[0].at).toBeGreaterThan(300);
    expect(progress[1].at).toBeGreaterThan(progress[0].at);
  }

  it('progress over SSE through nginx arrives incrementally, before the final response', async () => {
    const { arrivals, instance } = await timedProgress(url, 'nginx-sse');
    expect(['a', 'b']).toContain(instance);
    expectIncremental(arrivals);
    console.log(`SSE through nginx (proxy_buffering off), arrivals in ms: ${arrivals.map(({ at }) => at).join(', ')}`);
  });

  it("with nginx's default proxy buffering, the X-Accel-Buffering: no header alone keeps SSE incremental", async () => {
    const { arrivals, accel } = await timedProgress(buffered, 'nginx-buffered');
    // nginx consumes X-Accel-* headers from the upstream; it does not forward them.
    expect(accel).toBeNull();
    expectIncremental(arrivals);
    console.log(`SSE through nginx (default buffering + X-Accel-Buffering: no), arrivals in ms: ${arrivals.map(({ at }) => at).join(', ')}`);
  });

  it('nginx logged no upstream errors', async () => {
    expect(await waitFor(() => proxy!.readFile('access.log') !== '')).toBe(true);
    const errors = proxy!.readFile('error.log');
    expect(errors).not.toMatch(/upstream prematurely closed|connect\(\) failed|\[error\]/);
  });
});
