import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { JsonLines, PATIENCE_MS, StreamText, within } from './support/waiting.js';

/** The waits of support/waiting.ts must fail, and say why: a test that cannot fail proves nothing. */
describe('support/waiting.ts', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('within() fails at the ceiling, naming what it awaited and what it saw', async () => {
    jest.useFakeTimers();
    const waiting = within(new Promise(() => undefined), 'the answer', () => ['a note']);
    jest.advanceTimersByTime(PATIENCE_MS);
    await expect(waiting).rejects.toThrow(`Still waiting for the answer after ${PATIENCE_MS} ms; seen: ["a note"]`);
  });

  it('a wait on a stream ends at once when the stream closes without what it awaits', async () => {
    const stream = new PassThrough();
    const waiting = new StreamText('the probe', stream).contains('never');
    stream.end('something else\n');
    await expect(waiting).rejects.toThrow('the probe closed before "never"; seen: "something else\\n"');
  });

  it('resolves as soon as the text arrives, across chunks', async () => {
    const stream = new PassThrough();
    const waiting = new StreamText('the probe', stream).contains(/port (\d+)/);
    stream.write('listening on po');
    stream.write('rt 8080\n');
    expect((await waiting)[1]).toBe('8080');
  });

  it('a line that is not JSON fails every wait on JSON lines', async () => {
    const stream = new PassThrough();
    const lines = new JsonLines('the probe', stream);
    const waiting = lines.response(1);
    stream.write('{"jsonrpc":"2.0","id":1,"result":{}}garbage\n');
    await expect(waiting).rejects.toThrow('the probe wrote a line that is not JSON: "{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"result\\":{}}garbage"');
  });
});
