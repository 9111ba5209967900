import type { CallEra, EraCall, TransportFacts } from '../dispatch/call-era.js';
import type { MethodRoute } from '../dispatch/method-table.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { InvalidParamsError, UnsupportedProtocolVersionError, type McpError } from '../protocol/mcp.error.js';
import { META_SERVER_INFO, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import { parseRequestMeta, type RequestMeta } from '../protocol/request-meta.js';
import type { JsonObject, JsonRpcNotification, Result } from '../protocol/wire.types.js';

/**
 * 2026-07-28: every request carries its envelope in `params._meta`; a question is answered
 * `input_required` to the client, which sends the request again with its answers (MRTR); results
 * carry the server's identity in `_meta`; errors keep the HTTP status their class carries.
 */
export class ModernEra implements CallEra {
  private readonly serverMeta: JsonObject;

  constructor(private readonly settings: McpSettings) {
    this.serverMeta = { [META_SERVER_INFO]: settings.serverInfo };
  }

  envelope(call: EraCall, transport?: TransportFacts): RequestMeta {
    const meta = parseRequestMeta(call.request.params);
    transport?.validate?.(call.request, meta);
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(meta.protocolVersion)) throw new UnsupportedProtocolVersionError(meta.protocolVersion);
    return meta;
  }

  /** Methods that declare no era are 2026-07-28's. */
  serves(route: MethodRoute): boolean {
    return route.era === undefined || route.era === 'modern' || route.era === 'both';
  }

  ownMethod(): undefined {
    return undefined;
  }

  notifier(call: EraCall): (message: JsonRpcNotification) => void {
    return (message) => call.emit({ kind: 'notification', message });
  }

  /** One run: the client carries the rounds. Its `inputResponses` are counted before the method sees them. */
  rounds(route: MethodRoute, call: EraCall, serve: (params: JsonObject) => Promise<Result>): Promise<Result> {
    if (route.inputRounds) this.checkInputResponses(call.params.inputResponses);
    return serve(call.params);
  }

  render(_method: string, result: Result): Result {
    return { ...result, _meta: { ...(result._meta ?? {}), ...this.serverMeta } };
  }

  renderError(error: McpError) {
    return { error: error.toJsonRpc(), httpStatus: error.httpStatus };
  }

  private checkInputResponses(inputResponses: unknown): void {
    const max = this.settings.mrtr.maxInputResponses;
    if (inputResponses && typeof inputResponses === 'object' && Object.keys(inputResponses).length > max) {
      throw new InvalidParamsError(`Too many inputResponses: at most ${max} are accepted`);
    }
  }
}
