import { Logger, type Provider } from '@nestjs/common';
import { MCP_SEAL_SECRET, MCP_SETTINGS, MCP_STORE, REQUEST_STATE_SERVICES } from '../mcp.constants.js';
import { EPHEMERAL_SECRET } from '../mcp.messages.js';
import type { McpSettings } from '../config/mcp-settings.js';
import type { McpStore } from '../store/mcp-store.js';
import type { RequestStateServices } from './input-rounds.js';
import { RequestStateCodec } from './request-state.codec.js';
import { generateEphemeralSecret, parseRequestStateSecret } from './request-state.key.js';

/** The sealing key: `mocapi.mrtr.secret`, or an ephemeral key, with one warning. @internal */
export const sealSecretProvider: Provider = {
  provide: MCP_SEAL_SECRET,
  inject: [MCP_SETTINGS],
  useFactory: (settings: McpSettings): Buffer => {
    if (!settings.mrtr.secret) new Logger('McpModule').warn(EPHEMERAL_SECRET);
    return settings.mrtr.secret ? parseRequestStateSecret(settings.mrtr.secret) : generateEphemeralSecret();
  },
};

/** The requestState codec, keyed by the sealing key. @internal */
export const requestStateCodecProvider: Provider = {
  provide: RequestStateCodec,
  inject: [MCP_SEAL_SECRET, MCP_SETTINGS],
  useFactory: (secret: Buffer, settings: McpSettings) =>
    new RequestStateCodec(secret, settings.mrtr.ttlMs, undefined, { maxTokenLength: settings.mrtr.maxStateLength }),
};

/** The codec, the store that claims each requestState once, and the MRTR settings, for InputRounds. @internal */
export const requestStateServicesProvider: Provider = {
  provide: REQUEST_STATE_SERVICES,
  inject: [RequestStateCodec, MCP_STORE, MCP_SETTINGS],
  useFactory: (codec: RequestStateCodec, store: McpStore, settings: McpSettings): RequestStateServices => ({
    codec,
    store,
    acceptFirstRoundWithoutState: settings.mrtr.acceptFirstRoundWithoutState,
  }),
};
