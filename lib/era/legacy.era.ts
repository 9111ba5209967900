import { McpInsufficientScopeError } from '../auth/mcp-auth.errors.js';
import type { CallEra, EraCall } from '../dispatch/call-era.js';
import type { MethodRoute } from '../dispatch/method-table.js';
import { InvalidParamsError, type McpError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { RequestMeta } from '../protocol/request-meta.js';
import type { InputRequests, InputRequiredResult, InputResponses, JsonObject, JsonRpcNotification, JsonRpcRequest, Result } from '../protocol/wire.types.js';
import type { ClientRequests } from './client-requests.js';
import { capabilitiesIn2025 } from './legacy-extensions.js';
import { asLegacyError, asLegacyWire, legacyInputParams, renderLegacyNotification, renderLegacyRequest, renderLegacyResult } from './legacy-render.js';
import type { McpSession } from './session.js';
import type { LegacySessionFeeds } from './session-feeds.js';

/** Rounds of questions one 2025 call may ask (a client that keeps answering malformed input is not asked forever). */
const MAX_ROUNDS = 16;

/** What every session's calls share on this instance. */
export interface LegacyEraServices {
  clientRequests: ClientRequests;
  feeds: LegacySessionFeeds;
  /** `mocapi.session.input-timeout`: how long a question on the stream waits for its answer. */
  inputTimeoutMs: number;
}

/**
 * A call of one 2025 session: its envelope is the session's (negotiated at initialize); ping and
 * resource subscriptions are the session's own methods; a question is sent to the client on the
 * call's stream and the method run again with the answer (the MRTR replay, run by the server, one
 * call from the client's view); results and errors are rendered for 2025.
 */
export class LegacyEra implements CallEra {
  readonly sessionId: string;

  constructor(
    private readonly session: McpSession,
    private readonly services: LegacyEraServices,
  ) {
    this.sessionId = session.id;
  }

  /**
   * The session's version and capabilities (those 2025 defines: a tasks extension declared at
   * initialize enables nothing here), the request's own progress token.
   */
  envelope({ params }: EraCall): RequestMeta {
    const raw = isPlainObject(params._meta) ? params._meta : {};
    const progressToken = raw.progressToken;
    return {
      protocolVersion: this.session.protocolVersion,
      clientCapabilities: capabilitiesIn2025(this.session.clientCapabilities),
      clientInfo: this.session.clientInfo,
      progressToken: typeof progressToken === 'string' || typeof progressToken === 'number' ? progressToken : undefined,
      raw,
    };
  }

  serves(route: MethodRoute): boolean {
    return route.era === 'legacy' || route.era === 'both';
  }

  /**
   * `ping` (`{}` exactly: the 2025 suite counts the keys of its result), and `resources/subscribe` /
   * `resources/unsubscribe` (2026-07-28 removed them; `subscriptions/listen` names its resources),
   * which change what the session's standalone stream carries.
   */
  ownMethod({ request, params }: EraCall): Result | undefined {
    switch (request.method) {
      case 'ping':
        return asLegacyWire({});
      case 'resources/subscribe':
        this.services.feeds.subscribe(this.session, uriOf(request, params));
        return asLegacyWire({});
      case 'resources/unsubscribe':
        this.services.feeds.unsubscribe(this.session, uriOf(request, params));
        return asLegacyWire({});
      default:
        return undefined;
    }
  }

  /**
   * Notifications rendered for 2025. Progress must increase (2025 progress §Behavior), and a re-run
   * handler replays its code up to the last question: progress it already reported is not sent twice.
   */
  notifier(call: EraCall): (message: JsonRpcNotification) => void {
    let lastProgress = -Infinity;
    return (message) => {
      if (message.method === 'notifications/progress') {
        const progress = message.params?.progress;
        if (typeof progress === 'number') {
          if (progress <= lastProgress) return;
          lastProgress = progress;
        }
      }
      call.emit({ kind: 'notification', message: renderLegacyNotification(message) });
    };
  }

  /**
   * The method runs as in 2026-07-28; when it returns `input_required` (it asked a question), each
   * input request goes to the client as a server→client request on this call's stream, and the
   * method runs again with the answers as `inputResponses` and the requestState it returned. What the
   * client itself sent under those names is not taken (a 2025 client answers no rounds of ours).
   */
  async rounds(route: MethodRoute, call: EraCall, serve: (params: JsonObject) => Promise<Result>): Promise<Result> {
    const base = withoutInputRounds(call.params);
    let served = base;
    for (let round = 0; ; round++) {
      const result = await serve(served);
      // Past the last round the result stays input_required and is rendered as "input unavailable".
      if (result.resultType !== 'input_required' || !route.inputRounds || round === MAX_ROUNDS) return result;
      const { inputRequests, requestState } = result as InputRequiredResult;
      const inputResponses = await this.askClient(inputRequests ?? {}, call);
      served = { ...base, inputResponses, ...(requestState !== undefined ? { requestState } : {}) };
    }
  }

  render(method: string, result: Result): Result {
    return renderLegacyResult(method, result);
  }

  /**
   * 2025 clients read JSON-RPC errors from a 200 response; a 4xx is a transport failure to them. Save a
   * scope challenge: 2025-11-25's authorization answers it 403 `insufficient_scope`, which the SDK's
   * transport turns into a step-up.
   */
  renderError(error: McpError) {
    return { error: asLegacyError(error).toJsonRpc(), httpStatus: error instanceof McpInsufficientScopeError ? error.httpStatus : 200 };
  }

  /** Sends one round's questions together; the first failure withdraws the others. */
  private async askClient(requests: InputRequests, call: EraCall): Promise<InputResponses> {
    const { signal } = call;
    const round = new AbortController();
    const stop = () => round.abort(signal.reason);
    signal.addEventListener('abort', stop, { once: true });
    const options = {
      scope: this.session.id,
      signal: round.signal,
      timeoutMs: this.services.inputTimeoutMs,
      send: (message: JsonRpcRequest | JsonRpcNotification) =>
        call.emit('id' in message ? { kind: 'request', message: renderLegacyRequest(message) } : { kind: 'notification', message }),
    };
    try {
      const answers = await Promise.all(
        Object.entries(requests).map(async ([key, input]) => [key, await this.services.clientRequests.request(input.method, legacyInputParams(input), options)] as const),
      );
      return Object.fromEntries(answers) as InputResponses;
    } catch (error) {
      round.abort(error);
      throw error;
    } finally {
      signal.removeEventListener('abort', stop);
    }
  }
}

function uriOf(request: JsonRpcRequest, params: JsonObject): string {
  const uri = params.uri;
  if (typeof uri !== 'string' || uri === '') throw new InvalidParamsError(`${request.method} needs a non-empty string "uri"`);
  return uri;
}

function withoutInputRounds(params: JsonObject): JsonObject {
  if (!('inputResponses' in params) && !('requestState' in params)) return params;
  const { inputResponses: _answers, requestState: _state, ...rest } = params;
  return rest;
}
