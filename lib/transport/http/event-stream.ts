import type { ServerResponse } from 'node:http';
import type { JsonRpcMessage } from '../../protocol/wire.types.js';

/** How often a long-lived SSE stream gets a comment, so proxies keep it open. */
export const KEEP_ALIVE_MS = 15_000;

/** The head of every SSE response (no proxy buffering: nginx reads `X-Accel-Buffering`). */
export const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
} as const;

export function sseEvent(message: JsonRpcMessage): string {
  // One JSON message per event, on one `data:` line (JSON.stringify never emits raw newlines).
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** Sends `: keep-alive` comments on an open SSE response until it ends; returns the stop function. */
export function keepAlive(res: ServerResponse): () => void {
  const timer = setInterval(() => {
    if (!res.writableEnded) res.write(': keep-alive\n\n');
  }, KEEP_ALIVE_MS);
  timer.unref();
  return () => clearInterval(timer);
}
