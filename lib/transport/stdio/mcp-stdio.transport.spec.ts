import { describe, expect, it } from '@jest/globals';
import { PassThrough, Writable } from 'node:stream';
import { Observable } from 'rxjs';
import type { McpDispatcher, OutboundMessage } from '../../dispatch/mcp.dispatcher.js';
import type { McpEras } from '../../era/index.js';
import { PipeEra, type PipeEraServices } from '../../era/pipe-era.js';
import type { JsonRpcRequest } from '../../protocol/wire.types.js';
import { McpStdioTransport } from './mcp-stdio.transport.js';

/**
 * The pause of a result behind its call's notifications, on the transport alone: a scripted
 * dispatcher answers each call synchronously, so what the transport wrote right after handing it the
 * line is all it writes in that turn, with no clock involved. (The SDK clients' side is in
 * test/stdio.e2e-spec.ts and bench/stdio-progress.mjs.)
 */
const progress = (token: string, step: number): OutboundMessage => ({
  kind: 'notification',
  message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: step } },
});
const result = (id: string): OutboundMessage => ({ kind: 'response', message: { jsonrpc: '2.0', id, result: { resultType: 'complete' } }, httpStatus: 200 });

/** What each call emits, by request id (`steps` progress notifications, then its result). */
const scripts: Record<string, number> = { slow: 1, quick: 0, listen: 2, two: 2 };

function setup() {
  const dispatcher = {
    dispatch: (request: JsonRpcRequest) =>
      new Observable<OutboundMessage>((subscriber) => {
        const id = String(request.id);
        for (let step = 1; step <= scripts[id]; step++) subscriber.next(progress(id, step));
        subscriber.next(result(id));
        subscriber.complete();
      }),
    cancel: () => undefined,
  } as unknown as McpDispatcher;
  const eras = {
    classify: () => ({ era: 'modern' }),
    pipe(): PipeEra {
      return new PipeEra(this as unknown as PipeEraServices);
    },
  } as unknown as McpEras;
  /** Every line as it is written: the writable takes each chunk at once. */
  const lines: string[] = [];
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (chunk.length > 0) lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const transport = new McpStdioTransport(dispatcher, new PassThrough(), output, eras);
  const call = (id: string, method = 'tools/call') => transport.handleLine(JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }));
  const written = () => lines.map((line) => JSON.parse(line) as { id?: string; method?: string; params?: { progress?: number; requestId?: string } });
  const describeLine = (message: ReturnType<typeof written>[number]) =>
    message.method ? `${message.method}${message.params?.progress !== undefined ? ` ${message.params.progress}` : ''}` : `result ${message.id}`;
  return { transport, call, written: () => written().map(describeLine) };
}

describe('McpStdioTransport: a result behind its call’s notifications', () => {
  it('is not written in the turn its notification was; flush() waits for it, in order', async () => {
    const { transport, call, written } = setup();
    call('two');
    expect(written()).toEqual(['notifications/progress 1', 'notifications/progress 2']);
    expect(transport.inFlightCount).toBe(1);
    await transport.flush();
    expect(written()).toEqual(['notifications/progress 1', 'notifications/progress 2', 'result two']);
    expect(transport.inFlightCount).toBe(0);
  });

  it('a call without notifications writes its result at once, even while another call’s result pauses', async () => {
    const { transport, call, written } = setup();
    call('slow');
    call('quick');
    expect(written()).toEqual(['notifications/progress 1', 'result quick']);
    await transport.flush();
    expect(written()).toEqual(['notifications/progress 1', 'result quick', 'result slow']);
  });

  it('drain() waits until the paused result is written', async () => {
    const { transport, call, written } = setup();
    call('slow');
    await expect(transport.drain(30_000)).resolves.toBe(true);
    expect(written()).toEqual(['notifications/progress 1', 'result slow']);
  });

  it('what the call writes after its result (a listen stream’s notifications/cancelled) follows the result', async () => {
    const { transport, call, written } = setup();
    call('listen', 'subscriptions/listen');
    expect(written()).toEqual(['notifications/progress 1', 'notifications/progress 2']);
    await transport.flush();
    expect(written()).toEqual(['notifications/progress 1', 'notifications/progress 2', 'result listen', 'notifications/cancelled']);
  });
});

describe('McpStdioTransport: initialize answered in turn (a probe written before it is answered first)', () => {
  /** The dispatcher answers a turn later, as the real one does; the eras open a session on initialize. */
  function setupEras() {
    const dispatcher = {
      dispatch: (request: JsonRpcRequest) =>
        new Observable<OutboundMessage>((subscriber) => {
          void Promise.resolve().then(() => {
            subscriber.next(result(String(request.id)));
            subscriber.complete();
          });
        }),
      cancel: () => undefined,
    } as unknown as McpDispatcher;
    const eras = {
      classify: ({ request }: { request: JsonRpcRequest }, { sessionId }: { sessionId?: string }) => ({
        era: request.method === 'initialize' ? 'initialize' : sessionId ? 'legacy' : 'modern',
      }),
      initialize: (request: JsonRpcRequest) => ({ message: { jsonrpc: '2.0', id: request.id, result: { protocolVersion: '2025-11-25' } }, session: { id: 'session-1' } }),
      notifications: () => new Observable<never>(),
      callEra: () => ({}),
      pipe(): PipeEra {
        return new PipeEra(this as unknown as PipeEraServices);
      },
    } as unknown as McpEras;
    const ids: string[] = [];
    const output = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) ids.push(String((JSON.parse(line) as { id?: string }).id));
        done();
      },
    });
    const transport = new McpStdioTransport(dispatcher, new PassThrough(), output, eras);
    const line = (id: string, method: string) => transport.handleLine(JSON.stringify({ jsonrpc: '2.0', id, method, params: {} }));
    return { transport, line, ids };
  }

  it('server/discover, then initialize, then a session request: answered in that order', async () => {
    const { transport, line, ids } = setupEras();
    line('discover', 'server/discover');
    line('init', 'initialize');
    line('list', 'tools/list');
    await expect(transport.drain(30_000)).resolves.toBe(true);
    expect(ids).toEqual(['discover', 'init', 'list']);
  });

  it('initialize with nothing before it is answered at once', () => {
    const { line, ids } = setupEras();
    line('init', 'initialize');
    expect(ids).toEqual(['init']);
  });
});
