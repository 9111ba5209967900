/**
 * Reads a `text/event-stream` body as it arrives and yields the `data` of each event, so a test's
 * progress callback runs while the call is still going. The WHATWG event-stream rules a JSON-RPC
 * client needs: CRLF, CR or LF line ends, several `data:` lines joined by "\n", comments and other
 * fields skipped, an event ending at a blank line.
 */
export async function* eventStreamData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffered = '';
  let data: string[] = [];
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffered += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // A trailing CR may be the first half of a CRLF: keep it until the next chunk (or the end).
      const lines = buffered.split(done ? /\r\n|\r|\n/ : /\r\n|\r(?!$)|\n/);
      buffered = done ? '' : (lines.pop() ?? '');
      for (const line of done ? [...lines, ''] : lines) {
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
      }
      if (done) {
        finished = true;
        return;
      }
    }
  } finally {
    // The reader of the events stopped early (an error, a break): close the stream, which cancels the call.
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
