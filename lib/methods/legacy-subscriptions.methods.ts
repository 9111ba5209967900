import { Injectable } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { InvalidParamsError, MethodNotFoundError } from '../protocol/mcp.error.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { LegacySessionFeeds } from '../registry/legacy-session-feeds.js';
import { RpcMethod } from './rpc-method.decorator.js';

/**
 * `resources/subscribe` and `resources/unsubscribe` of the 2025 revisions (removed in 2026-07-28,
 * where `subscriptions/listen` names its resources): they change which `notifications/resources/updated`
 * the session's standalone stream carries. Both answer `{}`.
 * @internal
 */
@Injectable()
export class LegacySubscriptionsMethods {
  constructor(private readonly feeds: LegacySessionFeeds) {}

  @RpcMethod('resources/subscribe', { era: 'legacy' })
  subscribe(call: McpCall, params: JsonObject): Result {
    this.feeds.subscribe(sessionOf(call), uriOf(call, params));
    return { resultType: 'complete' };
  }

  @RpcMethod('resources/unsubscribe', { era: 'legacy' })
  unsubscribe(call: McpCall, params: JsonObject): Result {
    this.feeds.unsubscribe(sessionOf(call), uriOf(call, params));
    return { resultType: 'complete' };
  }
}

function sessionOf(call: McpCall) {
  // The dispatcher routes these to 2025 sessions only; this guards a future transport that would not.
  if (!call.session) throw new MethodNotFoundError(call.request.method);
  return call.session;
}

function uriOf(call: McpCall, params: JsonObject): string {
  const uri = params.uri;
  if (typeof uri !== 'string' || uri === '') throw new InvalidParamsError(`${call.request.method} needs a non-empty string "uri"`);
  return uri;
}
