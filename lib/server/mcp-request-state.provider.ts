import { Logger, type Provider } from '@nestjs/common';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { EPHEMERAL_SECRET } from '../mcp.messages.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { generateEphemeralSecret, parseRequestStateSecret, RequestStateCodec } from '../mrtr/index.js';

/** The requestState codec, keyed by `mocapi.mrtr.secret` (or an ephemeral key, with one warning). @internal */
export const requestStateCodecProvider: Provider = {
  provide: RequestStateCodec,
  inject: [MCP_SETTINGS],
  useFactory: (settings: McpSettings) => {
    if (!settings.mrtr.secret) new Logger('McpModule').warn(EPHEMERAL_SECRET);
    const secret = settings.mrtr.secret ? parseRequestStateSecret(settings.mrtr.secret) : generateEphemeralSecret();
    return new RequestStateCodec(secret, settings.mrtr.ttlMs, undefined, { maxTokenLength: settings.mrtr.maxStateLength });
  },
};
