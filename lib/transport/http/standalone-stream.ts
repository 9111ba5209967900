import type { ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import type { McpError } from '../../protocol/mcp.error.js';
import type { JsonRpcNotification } from '../../protocol/wire.types.js';
import { EVENT_STREAM_HEADERS, keepAlive, sseEvent } from './event-stream.js';
import { writeJsonRpcError } from './json-response.js';

/**
 * Writes a 2025 session's standalone stream (the answer to its GET): an SSE response carrying the
 * session's notifications, with keep-alive comments, until the feed completes (the session ended,
 * expired, or the server shuts down) or the client goes away. A feed that refuses at once (a second
 * stream for the session) is answered as that JSON-RPC error instead.
 */
export function writeStandaloneStream(res: ServerResponse, notifications: Observable<JsonRpcNotification>): void {
  let stopKeepAlive: (() => void) | undefined;
  const open = () => {
    if (stopKeepAlive || res.headersSent) return;
    res.writeHead(200, EVENT_STREAM_HEADERS);
    // The client learns at once that the stream is open, before the first notification.
    res.flushHeaders();
    stopKeepAlive = keepAlive(res);
  };
  const end = () => {
    stopKeepAlive?.();
    if (!res.writableEnded) res.end();
  };
  const subscription = notifications.subscribe({
    next: (notification) => {
      if (res.writableEnded) return;
      open();
      res.write(sseEvent(notification));
    },
    complete: end,
    error: (error: McpError) => {
      if (res.headersSent) return end();
      writeJsonRpcError(res, error.httpStatus, error);
    },
  });
  if (subscription.closed) return;
  open();
  res.on('close', () => {
    stopKeepAlive?.();
    subscription.unsubscribe();
  });
}
