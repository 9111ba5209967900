import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpTest } from 'nest-mcp/testing';
import { callTool, post, type Msg } from './support/interactive-http.js';
import { until } from './support/waiting.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';
import { slowState } from './src/interactive-fixture.tools.js';
import { RecordingLogger } from './src/hostile-handlers.fixture.js';

function progressOf(messages: Msg[]): unknown[] {
  return messages.map((message) => {
    expect(message.jsonrpc).toBe('2.0');
    expect(message.method).toBe('notifications/progress');
    expect(message).not.toHaveProperty('id');
    return message.params;
  });
}

describe('progress over HTTP (e2e)', () => {
  let app: INestApplication;
  let url: string;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    ({ app, url } = await startInteractiveApp({ logger }));
  });

  /** The tool's RangeError reached the log under the reference the client got, not the client. */
  function expectProgressErrorLogged(text: string): void {
    const ref = /^Internal error \(ref ([0-9a-f]{16})\)$/.exec(text)?.[1];
    expect(ref).toBeDefined();
    const logged = logger.entries.filter((entry) => entry.text.includes(ref!));
    expect(logged).toHaveLength(1);
    expect(logged[0].text).toContain('Progress must increase with each notification: got 5 after 5');
  }

  afterAll(async () => {
    await app?.close();
  });

  describe('with a progressToken', () => {
    it('countingProgress streams 1, 2, 3 of 3 as SSE, then the final response last', async () => {
      const reply = await callTool(url, 'count-up', {}, { progressToken: 'count-1', id: 101 });
      expect(reply.status).toBe(200);
      expect(reply.contentType).toBe('text/event-stream');
      expect(reply.messages).toHaveLength(4);
      expect(progressOf(reply.notifications)).toEqual([
        { progressToken: 'count-1', progress: 1, total: 3, message: 'first' },
        { progressToken: 'count-1', progress: 2, total: 3, message: 'second' },
        { progressToken: 'count-1', progress: 3, total: 3, message: 'third' },
      ]);
      expect(reply.response.id).toBe(101);
      expect(reply.response.result.resultType).toBe('complete');
      expect(reply.response.result.content).toEqual([{ type: 'text', text: 'counted' }]);
    });

    it('longProgress sends the given whole numbers, a missing message as no key, and a numeric token as a number', async () => {
      const reply = await callTool(url, 'long-up', {}, { progressToken: 77 });
      expect(reply.contentType).toBe('text/event-stream');
      const params = progressOf(reply.notifications);
      expect(params).toEqual([
        { progressToken: 77, progress: 10, total: 100, message: 'ten' },
        { progressToken: 77, progress: 40, total: 100 },
        { progressToken: 77, progress: 100, total: 100, message: 'all' },
      ]);
      expect(params[1]).not.toHaveProperty('message');
      expect(reply.response.result.content).toEqual([{ type: 'text', text: 'long done' }]);
    });

    it('doubleProgress with a null total sends fractional values and no total key', async () => {
      const reply = await callTool(url, 'double-up', {}, { progressToken: 'dbl' });
      expect(reply.contentType).toBe('text/event-stream');
      const params = progressOf(reply.notifications) as Msg[];
      expect(params).toEqual([
        { progressToken: 'dbl', progress: 0.5, message: 'half a unit' },
        { progressToken: 'dbl', progress: 2.25, message: 'more' },
      ]);
      for (const p of params) expect(Object.keys(p).sort()).toEqual(['message', 'progress', 'progressToken']);
      expect(reply.response.result.content).toEqual([{ type: 'text', text: 'double done' }]);
    });

    it('percentProgress sends fractions against a total of 1', async () => {
      const reply = await callTool(url, 'percent-up', {}, { progressToken: 'pct' });
      expect(reply.contentType).toBe('text/event-stream');
      expect(progressOf(reply.notifications)).toEqual([
        { progressToken: 'pct', progress: 0.25, total: 1, message: 'a quarter' },
        { progressToken: 'pct', progress: 1, total: 1, message: 'finished' },
      ]);
      expect(reply.response.result.content).toEqual([{ type: 'text', text: 'percent done' }]);
    });

    it('the raw SSE framing is one `event: message` + one `data:` line per message', async () => {
      const response = await post(url, 'tools/call', { name: 'count-up', arguments: {} }, { progressToken: 'raw' });
      expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
      expect(response.headers.get('x-accel-buffering')).toBe('no');
      const text = await response.text();
      const events = text.split('\n\n').filter((event) => event.length > 0);
      expect(events).toHaveLength(4);
      for (const event of events) {
        const lines = event.split('\n');
        expect(lines).toHaveLength(2);
        expect(lines[0]).toBe('event: message');
        expect(lines[1].startsWith('data: {')).toBe(true);
      }
    });

    it('a non-increasing value (a RangeError) becomes an internal tool error (isError), after the valid notification', async () => {
      const reply = await callTool(url, 'backwards', {}, { progressToken: 'back' });
      expect(reply.status).toBe(200);
      expect(reply.contentType).toBe('text/event-stream');
      expect(progressOf(reply.notifications)).toEqual([{ progressToken: 'back', progress: 5, total: 10, message: 'five' }]);
      expect(reply.response.result.isError).toBe(true);
      expect(reply.response.result.resultType).toBe('complete');
      // The RangeError is the tool author's bug: the client gets a reference, the log the message.
      expect(reply.response.result.content).toEqual([{ type: 'text', text: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) }]);
      expectProgressErrorLogged(reply.response.result.content[0].text);
    });

    it("the sample's `process` tool reports parsed, transformed, stored of 3", async () => {
      const reply = await callTool(url, 'process', { data: 'hello world' }, { progressToken: 'proc-1' });
      expect(reply.contentType).toBe('text/event-stream');
      expect(progressOf(reply.notifications)).toEqual([
        { progressToken: 'proc-1', progress: 1, total: 3, message: 'parsed' },
        { progressToken: 'proc-1', progress: 2, total: 3, message: 'transformed' },
        { progressToken: 'proc-1', progress: 3, total: 3, message: 'stored' },
      ]);
      expect(reply.response.result.resultType).toBe('complete');
      expect(reply.response.result.structuredContent).toEqual({ result: 'Done: processed 11 characters' });
    });
  });

  describe('without a progressToken', () => {
    it.each([
      ['count-up', 'counted'],
      ['long-up', 'long done'],
      ['double-up', 'double done'],
      ['percent-up', 'percent done'],
    ])('%s answers plain application/json with no notifications', async (tool, text) => {
      const reply = await callTool(url, tool, {});
      expect(reply.status).toBe(200);
      expect(reply.contentType).toBe('application/json');
      expect(reply.messages).toHaveLength(1);
      expect(reply.response.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text }] });
      expect(reply.response.result.isError).toBeUndefined();
    });

    it("the sample's `process` tool answers plain JSON", async () => {
      const reply = await callTool(url, 'process', { data: 'abc' });
      expect(reply.contentType).toBe('application/json');
      expect(reply.messages).toHaveLength(1);
      expect(reply.response.result.structuredContent).toEqual({ result: 'Done: processed 3 characters' });
    });

    it('still validates: a non-increasing value is the same tool error, as plain JSON', async () => {
      const reply = await callTool(url, 'backwards', {});
      expect(reply.contentType).toBe('application/json');
      expect(reply.messages).toHaveLength(1);
      expect(reply.response.result).toEqual({
        resultType: 'complete',
        isError: true,
        content: [{ type: 'text', text: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) }],
        _meta: reply.response.result._meta,
      });
      expectProgressErrorLogged(reply.response.result.content[0].text);
    });
  });

  describe('client disconnect mid-stream', () => {
    it('aborts the context signal, stops the tool emitting, and the server keeps serving', async () => {
      const client = await McpTest.createClient(app);
      const controller = new AbortController();
      const seen: unknown[] = [];
      const call = client.callTool('slow-progress', {}, {
        signal: controller.signal,
        onProgress: ({ progress, total, message }) => {
          seen.push({ progress, total, message });
          controller.abort();
        },
      });
      await expect(call).rejects.toThrow(/aborted/i);
      expect(seen[0]).toEqual({ progress: 1, total: 100, message: 'tick 1' });
      await client.close();

      await until(() => slowState.finished, 'slow-progress to return', () => slowState);
      expect(slowState.entered).toBe(1);
      expect(slowState.abortEvents).toBe(1);
      expect(slowState.sawAborted).toBe(true);
      expect(slowState.emitted).toBeLessThan(100);
      // It stopped at the abort: not one emit after the signal fired (and, returned, it can emit no more).
      expect(slowState.emitted).toBe(slowState.emittedAtAbort);

      const next = await callTool(url, 'count-up', {}, { progressToken: 'after' });
      expect(next.status).toBe(200);
      expect(next.notifications).toHaveLength(3);
      expect(next.response.result.content).toEqual([{ type: 'text', text: 'counted' }]);
    });
  });
});
