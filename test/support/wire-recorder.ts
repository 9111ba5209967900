import { parseSse, type Json } from './mcp-http.js';

/** One message the server sent, with the method of the request it answers (for result schema checks). */
export interface RecordedMessage {
  message: Json;
  method?: string;
}

/** A GET (standalone) stream the client opened: its status, and when its body ended. */
export interface RecordedStream {
  status: number;
  ended: Promise<void>;
}

/**
 * A `fetch` for SDK transports that records every JSON-RPC message the server sends, streams included:
 * SSE bodies are teed and read as they arrive (a standalone GET stream never ends on its own), so the
 * client sees them live while the test can check each message against the schema afterwards.
 */
export class WireRecorder {
  readonly messages: RecordedMessage[] = [];
  readonly streams: RecordedStream[] = [];
  private readonly streamWaiters: Array<(stream: RecordedStream) => void> = [];
  private readonly unclaimed: RecordedStream[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as Json) : undefined;
    const method = (message: Json) => ('id' in message && sent?.id === message.id ? sent.method : undefined);
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream') || !response.body) {
      const text = await response.clone().text();
      if (type.includes('application/json') && text) this.record(JSON.parse(text), method);
      if ((init?.method ?? 'GET') === 'GET') this.opened({ status: response.status, ended: Promise.resolve() });
      return response;
    }
    const [mine, theirs] = response.body.tee();
    const ended = this.read(mine, method);
    if ((init?.method ?? 'GET') === 'GET') this.opened({ status: response.status, ended });
    return new Response(theirs, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** The next GET stream the client opens (the earliest one not awaited yet). */
  nextStream(): Promise<RecordedStream> {
    const ready = this.unclaimed.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => this.streamWaiters.push(resolve));
  }

  private opened(stream: RecordedStream): void {
    this.streams.push(stream);
    const waiter = this.streamWaiters.shift();
    if (waiter) waiter(stream);
    else this.unclaimed.push(stream);
  }

  private record(message: Json, method: (message: Json) => string | undefined): void {
    this.messages.push({ message, method: method(message) });
  }

  /** Reads an SSE body to its end (or until it fails, as when the client aborts), recording each event. */
  private async read(body: ReadableStream<Uint8Array>, method: (message: Json) => string | undefined): Promise<void> {
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of body) {
        buffered += decoder.decode(chunk, { stream: true });
        const cut = buffered.lastIndexOf('\n\n');
        if (cut === -1) continue;
        for (const message of parseSse(buffered.slice(0, cut))) this.record(message, method);
        buffered = buffered.slice(cut + 2);
      }
    } catch {
      // The client aborted the request (close()): the stream is over for it too.
    }
  }
}
