import { describe, expect, it } from '@jest/globals';
import type { OutboundMessage } from './call-era.js';
import { RoutedCall, ServedCall, type OutboundSink } from './served-call.js';
import type { RequestMeta } from '../protocol/request-meta.js';

const request = { jsonrpc: '2.0' as const, id: 7, method: 'tools/call', params: { name: 'echo' } };
const response: OutboundMessage = { kind: 'response', message: { jsonrpc: '2.0', id: 7, result: { resultType: 'complete' } }, httpStatus: 200 };
const meta: RequestMeta = { protocolVersion: '2026-07-28', clientCapabilities: {}, raw: {} };
const progress: OutboundMessage = { kind: 'notification', message: { jsonrpc: '2.0', method: 'notifications/progress' } };

/** A sink that records what reaches it, in order. */
function recorder(): OutboundSink & { seen: string[] } {
  const seen: string[] = [];
  return { seen, next: (outbound) => void seen.push(outbound.kind), complete: () => void seen.push('complete') };
}

describe('ServedCall (one request the dispatcher serves)', () => {
  it('a signal read only after the call was aborted is already aborted, with the reason', () => {
    const call = new ServedCall(request, recorder());
    const reason = new Error('The client closed the response stream');
    call.abort(reason);
    expect(call.signal.aborted).toBe(true);
    expect(call.signal.reason).toBe(reason);
  });

  it('a signal read before the abort fires its listeners, and the McpCall reads the same signal', () => {
    const call = new ServedCall(request, recorder());
    const routed = new RoutedCall(call, meta, () => undefined, {}, undefined);
    const fired: unknown[] = [];
    routed.signal.addEventListener('abort', () => fired.push(routed.signal.reason));
    call.cancel(new Error('Cancelled by the client'));
    expect(routed.signal).toBe(call.signal);
    expect(fired).toEqual([new Error('Cancelled by the client')]);
  });

  it('sends notifications, then the response and the end; nothing after', () => {
    const sink = recorder();
    const call = new ServedCall(request, sink);
    call.emit(progress);
    call.respond(response);
    call.emit(progress);
    call.cancel(new Error('late'));
    expect(sink.seen).toEqual(['notification', 'response', 'complete']);
    expect(call.signal.aborted).toBe(false);
  });

  it('a cancelled call ends without a response, is untracked once, and its late response is dropped', () => {
    const sink = recorder();
    const call = new ServedCall(request, sink);
    let untracked = 0;
    call.tracked(() => untracked++);
    call.cancel(new Error('Cancelled by the client'));
    call.respond(response);
    call.unsubscribe();
    expect(sink.seen).toEqual(['complete']);
    expect(untracked).toBe(1);
  });

  it('the client going away fires the signal and sends nothing more', () => {
    const sink = recorder();
    const call = new ServedCall(request, sink);
    call.unsubscribe();
    call.respond(response);
    expect(sink.seen).toEqual([]);
    expect(call.signal.reason).toEqual(new Error('The client closed the response stream'));
  });
});
