import { describe, expect, it } from '@jest/globals';
import { eventStreamData } from './event-stream.js';

/** A body that arrives in the given chunks (cut anywhere, even inside a CRLF or a UTF-8 character). */
function body(...chunks: Array<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const data of eventStreamData(stream)) out.push(data);
  return out;
}

describe('eventStreamData', () => {
  it('yields the data of each event, skipping comments and other fields', async () => {
    expect(await all(body('event: message\ndata: {"a":1}\n\n: keep-alive\n\nid: 7\ndata:{"b":2}\n\n'))).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('reads CRLF and CR line ends, even when a CRLF is cut between chunks', async () => {
    expect(await all(body('data: one\r', '\n\r\n', 'data: two\r\r'))).toEqual(['one', 'two']);
  });

  it('joins several data lines with a newline, and ends a last event without its blank line', async () => {
    expect(await all(body('data: a\ndata: b\n\ndata: last'))).toEqual(['a\nb', 'last']);
  });

  it('decodes a UTF-8 character split between chunks', async () => {
    const bytes = new TextEncoder().encode('data: zürich\n\n');
    const cut = bytes.indexOf(0xc3) + 1;
    expect(await all(body(bytes.slice(0, cut), bytes.slice(cut)))).toEqual(['zürich']);
  });
});
