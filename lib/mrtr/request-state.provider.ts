import { Logger, type Provider } from '@nestjs/common';
import { MCP_SEAL_KEYS, MCP_SEAL_SECRET, MCP_SETTINGS, MCP_STORE, REQUEST_STATE_SERVICES } from '../mcp.constants.js';
import { EPHEMERAL_SECRET } from '../mcp.messages.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { SettingSources } from '../config/setting-sources.js';
import type { McpStore } from '../store/mcp-store.js';
import type { RequestStateServices } from './input-rounds.js';
import { RequestStateCodec } from './request-state.codec.js';
import { generateEphemeralSecret, parseSealKeys, SealKeys } from './request-state.key.js';

/**
 * The sealing keys: `mocapi.mrtr.secret` current and `mocapi.mrtr.previous-secrets` previous (their ids
 * logged when there are previous keys), or an ephemeral key, with one warning. A malformed or repeated
 * key fails start-up. @internal
 */
export const sealKeysProvider: Provider = {
  provide: MCP_SEAL_KEYS,
  inject: [MCP_SETTINGS],
  useFactory: (settings: McpSettings): SealKeys => {
    const logger = new Logger('McpModule');
    let keys: SealKeys | undefined;
    try {
      keys = parseSealKeys(settings.mrtr.secret, settings.mrtr.previousSecrets);
    } catch (error) {
      throw SettingSources.of(settings)?.configurationError(error) ?? error;
    }
    if (!keys) logger.warn(EPHEMERAL_SECRET);
    else if (keys.previous.length > 0) logger.log(keys.describe());
    return keys ?? new SealKeys(generateEphemeralSecret());
  },
};

/** The current sealing key alone. @internal */
export const sealSecretProvider: Provider = {
  provide: MCP_SEAL_SECRET,
  inject: [MCP_SEAL_KEYS],
  useFactory: (keys: SealKeys): Buffer => keys.currentSecret,
};

/** The requestState codec, keyed by the sealing keys. @internal */
export const requestStateCodecProvider: Provider = {
  provide: RequestStateCodec,
  inject: [MCP_SEAL_KEYS, MCP_SETTINGS],
  useFactory: (keys: SealKeys, settings: McpSettings) =>
    new RequestStateCodec(keys, settings.mrtr.ttlMs, undefined, { maxTokenLength: settings.mrtr.maxStateLength }),
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
