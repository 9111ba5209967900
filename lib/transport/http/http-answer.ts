import type { ServerResponse } from 'node:http';
import type { Unsubscribable } from 'rxjs';
import type { OutboundMessage, OutboundSink } from '../../dispatch/mcp.dispatcher.js';
import type { JsonRpcMessage } from '../../protocol/wire.types.js';
import { ResultPacing } from '../result-pacing.js';
import { EVENT_STREAM_HEADERS, keepAlive, sseEvent } from './event-stream.js';
import { writeJson } from './json-response.js';

/**
 * Writes one request's messages on its HTTP response: one JSON body, or an SSE stream once a
 * notification comes before the response. The response closing first (the client went away) stops
 * the call. A class, not closures, because every request makes one.
 */
export class HttpAnswer implements OutboundSink {
  /** The call's messages; unsubscribed when the response closes before it was written out. */
  source?: Unsubscribable;
  private streaming = false;
  private finished = false;
  private stopKeepAlive?: () => void;
  // A result right behind a progress event waits a moment (ResultPacing): bridges such as mcp-remote
  // relay both to a stdio client in one write, which loses the progress event then.
  private pacing?: ResultPacing;
  private resultHeld = false;

  /** `onFinish` runs once, when the answer is written out or the response closed. */
  constructor(
    private readonly res: ServerResponse,
    private readonly onFinish?: () => void,
  ) {
    res.on('close', () => {
      this.finish();
      if (!res.writableFinished) this.source?.unsubscribe();
    });
  }

  next(outbound: OutboundMessage): void {
    const res = this.res;
    if (res.destroyed || this.resultHeld) return;
    if (outbound.kind === 'response' && !this.streaming) {
      writeJson(res, outbound.httpStatus, outbound.message);
      return;
    }
    if (!this.streaming) {
      this.streaming = true;
      res.writeHead(200, EVENT_STREAM_HEADERS);
      // Long-lived streams (subscriptions/listen) get comment keep-alives so proxies keep them open.
      this.stopKeepAlive = keepAlive(res);
    }
    const pacing = (this.pacing ??= new ResultPacing());
    if (outbound.kind !== 'response') {
      res.write(sseEvent(outbound.message), pacing.notificationWrite());
      return;
    }
    this.resultHeld = pacing.holdsResult(() => this.endStream(outbound.message));
    if (!this.resultHeld) this.endStream(outbound.message);
  }

  complete(): void {
    // The held result ends the response when its pause is over.
    if (this.resultHeld) return;
    this.finish();
    // Completed without a response (the call was cancelled): nothing more is sent.
    if (!this.res.writableEnded) {
      if (!this.res.headersSent) this.res.statusCode = 204;
      this.res.end();
    }
  }

  private endStream(last: JsonRpcMessage): void {
    if (this.res.destroyed) return this.finish();
    this.res.write(sseEvent(last));
    this.finish();
    this.res.end();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.stopKeepAlive?.();
    this.pacing?.cancel();
    this.onFinish?.();
  }
}
