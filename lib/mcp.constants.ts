/** Metadata keys written by the method decorators. @internal */
export const MCP_TOOL_METADATA = 'mcp:tool';
export const MCP_PROMPT_METADATA = 'mcp:prompt';
export const MCP_RESOURCE_METADATA = 'mcp:resource';
export const MCP_RESOURCE_TEMPLATE_METADATA = 'mcp:resource_template';
export const MCP_COMPLETE_METADATA = 'mcp:complete';
export const MCP_UI_METADATA = 'mcp:ui';
export const MCP_SKILL_METADATA = 'mcp:skill';

/** DI token of the resolved settings (options ⊕ ConfigService ⊕ defaults). @internal */
export const MCP_SETTINGS = Symbol('MCP_SETTINGS');
/** DI token of the McpStore (one-time requestState claims). @internal */
export const MCP_STORE = Symbol('MCP_STORE');
/**
 * DI token of the SealKeys that seal requestState tokens and 2025 session ids: the current key
 * (`mocapi.mrtr.secret`) seals, it and the previous keys (`mocapi.mrtr.previous-secrets`) open. @internal
 */
export const MCP_SEAL_KEYS = Symbol('MCP_SEAL_KEYS');
/** DI token of the current 256-bit sealing key alone (`mocapi.mrtr.secret`, or the ephemeral key), for tests that seal by hand. @internal */
export const MCP_SEAL_SECRET = Symbol('MCP_SEAL_SECRET');
/** DI token of the RequestStateServices that InputRounds works with. @internal */
export const REQUEST_STATE_SERVICES = Symbol('REQUEST_STATE_SERVICES');
/** DI token of the era that frames requests handed to the dispatcher without one (2026-07-28's). @internal */
export const MCP_MODERN_ERA = Symbol('MCP_MODERN_ERA');
/** DI token of the provider that points the controller at the configured endpoint. @internal */
export const MCP_ENDPOINT_BINDING = Symbol('MCP_ENDPOINT_BINDING');

/** The execution-context type that guards and interceptors see for MCP handlers. */
export const MCP_CONTEXT_TYPE = 'mcp';

export const DEFAULT_ENDPOINT = '/mcp';
export const DEFAULT_ALLOWED_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];
/** Defaults of the store settings (`mocapi.store.*`), shared by the settings and the stores themselves. */
export const DEFAULT_STORE_KEY_PREFIX = 'nest-mcp:';
export const DEFAULT_STORE_MAX_ENTRIES = 100_000;
/** The store's budget of each record kind, as a share of max-entries; the rest (5%) is left to records written without a kind. */
export const DEFAULT_STORE_SHARES = { claim: 0.5, task: 0.25, 'session-end': 0.2 } as const;

/** A record kind's default budget: its share of `maxEntries`, at least 1. */
export function defaultStoreBudget(maxEntries: number, kind: keyof typeof DEFAULT_STORE_SHARES): number {
  return Math.max(1, Math.floor(maxEntries * DEFAULT_STORE_SHARES[kind]));
}
/**
 * Each client's share of each store budget (`mocapi.store.client-share`): small enough that one client
 * flooding at full speed holds a fiftieth of any budget, large enough for a busy office behind one address.
 */
export const DEFAULT_CLIENT_SHARE = 0.02;
