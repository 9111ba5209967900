import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { parseSse, randomSecret, readEvents } from './support/interactive-http.js';
import { findBinary, missingBinary, startNginx, type LocalService } from './support/local-services.js';
import { release, run, startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';
import { until, within } from './support/waiting.js';

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
  });

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

  /**
   * Streams a `held` call of 4 steps through `target`. The tool waits after each progress event until
   * that event has arrived here: the call can only finish if every event came through on its own,
   * ahead of the rest (a proxy that buffered them would hold them back, and the call would never end).
   */
  async function heldProgress(target: string, tag: string): Promise<{ messages: Json[]; instance: string | null; accel: string | null }> {
    const body = rpc('tools/call', { name: 'held', arguments: { tag, steps: 4 } }, { meta: { progressToken: `p-${tag}` } });
    const controller = new AbortController();
    const response = await fetch(target, { method: 'POST', headers: standardHeaders(body), body: JSON.stringify(body), signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const messages: Json[] = [];
    /** For each progress event: how far the tool had got when it arrived. */
    const heldAt: number[] = [];
    const reading = readEvents(response, (message) => {
      messages.push(message);
      if (message.method !== 'notifications/progress') return;
      heldAt.push(run(tag).emitted);
      release(tag);
    });
    try {
      await within(reading, `each progress event of ${tag} through nginx`, () => messages);
    } finally {
      controller.abort();
    }
    expect(heldAt).toEqual([1, 2, 3, 4]);
    return { messages, instance: response.headers.get('x-instance'), accel: response.headers.get('x-accel-buffering') };
  }

  function expectIncremental(messages: Json[]): void {
    expect(messages.slice(0, -1).map((message) => message.params.progress)).toEqual([1, 2, 3, 4]);
    expect(messages.at(-1).result.content[0].text).toMatch(/^held .* done$/);
  }

  it('progress over SSE through nginx arrives incrementally, before the final response', async () => {
    const { messages, instance } = await heldProgress(url, 'nginx-sse');
    expect(['a', 'b']).toContain(instance);
    expectIncremental(messages);
  });

  it("with nginx's default proxy buffering, the X-Accel-Buffering: no header alone keeps SSE incremental", async () => {
    const { messages, accel } = await heldProgress(buffered, 'nginx-buffered');
    // nginx consumes X-Accel-* headers from the upstream; it does not forward them.
    expect(accel).toBeNull();
    expectIncremental(messages);
  });

  it('nginx logged no upstream errors', async () => {
    await until(() => proxy!.readFile('access.log') !== '', "nginx's access log");
    const errors = proxy!.readFile('error.log');
    expect(errors).not.toMatch(/upstream prematurely closed|connect\(\) failed|\[error\]/);
  });
});
