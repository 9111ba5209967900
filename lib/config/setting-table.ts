import type { McpProtocolPosture } from '../interfaces/mcp-module-options.interface.js';
import type { CacheScope } from '../protocol/wire.types.js';
import { DEFAULT_CLIENT_SHARE, DEFAULT_ENDPOINT, DEFAULT_STORE_KEY_PREFIX, DEFAULT_STORE_MAX_ENTRIES } from '../mcp.constants.js';
import { oneOf, SETTING_TYPES as is, type SettingType } from './setting-values.js';

/**
 * One setting: where the user may set it, how its value is read, its default, and what the reference
 * (docs/reference/configuration.md, checked against this table) says of it.
 * @internal
 */
export interface SettingDescriptor<T> {
  /** Its `McpModule` option (a path in `McpModuleOptions`); absent: config only. */
  option?: string;
  type: SettingType<T>;
  /** The default, written as a user would set it; absent: none, or one computed from other settings (`shownDefault`). */
  default?: string | number | boolean;
  /** The default as the reference shows it, when it is not a plain value. */
  shownDefault?: string;
  /** What it does, as the reference says it (markdown). */
  meaning: string;
  /** A blank config value is kept as `''` instead of taken for unset (a secret: blank is a lost key). */
  keepBlank?: true;
}

const setting = <T>(descriptor: SettingDescriptor<T>): SettingDescriptor<T> => descriptor;

const POSTURES: readonly McpProtocolPosture[] = ['dual', 'modern', 'legacy'];
const SCOPES: readonly CacheScope[] = ['public', 'private'];
const INVOKERS: readonly McpInvokerPath[] = ['direct', 'nest'];

/** `direct`: what Nest would add nothing to is called or answered directly; `nest`: everything takes Nest's own path. @internal */
export type McpInvokerPath = 'direct' | 'nest';

/**
 * Every `mocapi.*` setting, under its config key (read as written, then in its environment form,
 * `MOCAPI_MRTR_TTL`), in the reference's order. Rules between settings are applied after it resolves.
 * @internal
 */
export const SETTING_TABLE = {
  'mocapi.server.name': setting({ option: 'name', type: is.text, default: 'nest-mcp-server', meaning: '`serverInfo.name`' }),
  'mocapi.server.version': setting({ option: 'version', type: is.text, default: '0.0.0', meaning: '`serverInfo.version`' }),
  'mocapi.server.title': setting({ option: 'title', type: is.text, meaning: '`serverInfo.title`' }),
  'mocapi.server.instructions': setting({ option: 'instructions', type: is.text, meaning: 'returned by `server/discover`' }),
  'mocapi.endpoint': setting({ option: 'endpoint', type: is.endpoint, default: DEFAULT_ENDPOINT, meaning: 'the endpoint path' }),
  'mocapi.protocol': setting({
    option: 'protocol',
    type: oneOf(POSTURES, (got) => `must be one of ${POSTURES.map((p) => `"${p}"`).join(', ')}; got "${got}"`),
    default: 'dual',
    meaning: '`dual`, `modern` (2026-07-28 only) or `legacy` (2025 only); see [Clients](clients.md#clients-2025-and-2026-eras)',
  }),
  'mocapi.session.ttl': setting({ option: 'session.ttl', type: is.isoDuration, default: 'PT24H', meaning: 'ISO-8601 lifetime of a 2025 session (`Mcp-Session-Id`)' }),
  'mocapi.session.input-timeout': setting({
    option: 'session.inputTimeout',
    type: is.positiveDurationMs,
    shownDefault: '`mrtr.ttl`',
    meaning: "how long a 2025 call waits for the client's answer to a question (at most `mrtr.ttl`)",
  }),
  'mocapi.allowed-origins': setting({
    option: 'allowedOrigins',
    type: is.list,
    shownDefault: 'localhost, 127.0.0.1, [::1]',
    meaning: '`Origin`s allowed, comma-separated (DNS-rebinding protection); `*` allows all',
  }),
  'mocapi.allowed-hosts': setting({ option: 'allowedHosts', type: is.list, shownDefault: 'any', meaning: '`Host` values allowed, comma-separated (port ignored)' }),
  'mocapi.page-size': setting({ option: 'pageSize', type: is.integer, default: 100, meaning: 'page size of every list' }),
  'mocapi.playground': setting({
    option: 'playground',
    type: is.flag,
    shownDefault: 'on unless `NODE_ENV=production`',
    meaning: 'serve the [playground](../guide/playground.md) at `<endpoint>/playground`',
  }),
  'mocapi.server-card.enabled': setting({
    option: 'serverCard.enabled',
    type: is.flag,
    shownDefault: 'on once described',
    meaning:
      'serve the [Server Card](../guide/server-card.md#server-card-and-ai-catalog) at `<endpoint>/server-card`; `false`: 404; `true` without a description or a name stops start-up',
  }),
  'mocapi.server-card.namespace': setting({
    option: 'serverCard.namespace',
    type: is.text,
    meaning: "reverse-DNS namespace of the card's name, `<namespace>/<name>` (not needed when `name` is `com.example/weather`)",
  }),
  'mocapi.server-card.description': setting({ option: 'serverCard.description', type: is.text, meaning: "the card's description (1 to 100 characters); needed for a card" }),
  'mocapi.server-card.url': setting({
    option: 'serverCard.url',
    type: is.text,
    shownDefault: "`auth.resourceMetadata.resource`, else the request's scheme and `Host` with the endpoint",
    meaning: "the endpoint's public URL in the card and the catalog (set it behind a proxy or a global prefix)",
  }),
  'mocapi.server-card.website-url': setting({ option: 'serverCard.websiteUrl', type: is.text, meaning: "the card's `websiteUrl`" }),
  'mocapi.server-card.ai-catalog': setting({
    option: 'serverCard.aiCatalog',
    type: is.flag,
    default: false,
    meaning: 'serve `/.well-known/ai-catalog.json` listing the card ([AI Catalog](../guide/server-card.md#the-ai-catalog-opt-in)); it speaks for the whole host',
  }),
  'mocapi.mrtr.secret': setting({
    option: 'mrtr.secret',
    type: is.text,
    keepBlank: true,
    shownDefault: 'ephemeral, with a warning',
    meaning: 'base64 256-bit key of `requestState`; a blank value (`MOCAPI_MRTR_SECRET=`) stops start-up',
  }),
  'mocapi.mrtr.previous-secrets': setting({
    option: 'mrtr.previousSecrets',
    type: is.entries,
    shownDefault: 'none',
    meaning: 'keys that sealed before `mrtr.secret`, comma-separated: what they sealed still opens ([Rotating the secret](../operations/secret-rotation.md#rotating-the-secret))',
  }),
  'mocapi.mrtr.ttl': setting({ option: 'mrtr.ttl', type: is.isoDuration, default: 'PT5M', meaning: 'ISO-8601 lifetime of a round trip' }),
  'mocapi.mrtr.max-state-length': setting({ option: 'mrtr.maxStateLength', type: is.integer, default: 65_536, meaning: 'longest `requestState` accepted (characters)' }),
  'mocapi.mrtr.max-input-responses': setting({ option: 'mrtr.maxInputResponses', type: is.integer, default: 32, meaning: 'most `inputResponses` entries in one request' }),
  'mocapi.mrtr.accept-first-round-without-state': setting({
    option: 'mrtr.acceptFirstRoundWithoutState',
    type: is.flag,
    default: false,
    meaning: 'take answers to the first question without `requestState`',
  }),
  'mocapi.cache.ttl-ms': setting({ option: 'cache.ttlMs', type: is.count, default: 0, meaning: '`ttlMs` on list and read results (SEP-2549)' }),
  'mocapi.cache.scope': setting({
    option: 'cache.cacheScope',
    type: oneOf(SCOPES, (got) => `must be "public" or "private"; got "${got}"`),
    default: 'private',
    meaning: '`cacheScope` on list and read results',
  }),
  'mocapi.store.redis-url': setting({
    option: 'store.redisUrl',
    type: is.text,
    shownDefault: '— (in memory)',
    meaning: 'Redis shared by all instances: one-time `requestState`, tasks, and the bus between them ([Several instances](../operations/several-instances.md#several-instances))',
  }),
  'mocapi.store.key-prefix': setting({ option: 'store.keyPrefix', type: is.text, default: DEFAULT_STORE_KEY_PREFIX, meaning: 'prefix of every Redis key' }),
  'mocapi.store.max-entries': setting({
    option: 'store.maxEntries',
    type: is.integer,
    default: DEFAULT_STORE_MAX_ENTRIES,
    meaning: 'most live records of the store, split into the budgets below; see [Production](../operations/production.md#production)',
  }),
  'mocapi.store.max-claims': setting({ option: 'store.maxClaims', type: is.integer, shownDefault: '50% of `max-entries`', meaning: 'most live requestState claims' }),
  'mocapi.store.max-tasks': setting({ option: 'store.maxTasks', type: is.integer, shownDefault: '25% of `max-entries`', meaning: 'most live tasks' }),
  'mocapi.store.max-session-ends': setting({ option: 'store.maxSessionEnds', type: is.integer, shownDefault: '20% of `max-entries`', meaning: 'most live ended 2025 sessions' }),
  'mocapi.store.client-share': setting({
    option: 'store.clientShare',
    type: is.fraction,
    default: DEFAULT_CLIENT_SHARE,
    meaning:
      'the share of each budget one client may hold (claims 1000, tasks 500, ended sessions 400 by default); past it `-31429` for that client alone; see [Production](../operations/production.md#production)',
  }),
  'mocapi.store.client-ip-header': setting({
    option: 'store.clientIpHeader',
    type: is.headerName,
    shownDefault: "— (the connection's address)",
    meaning: "header a trusted proxy overwrites with the client's address: who a record counts against without auth",
  }),
  'mocapi.store.redis-require-noeviction': setting({
    option: 'store.redisRequireNoeviction',
    type: is.flag,
    default: false,
    meaning: "refuse to start unless Redis's `maxmemory-policy` is `noeviction`",
  }),
  'mocapi.skills.directory': setting({
    option: 'skills.directory',
    type: is.path,
    shownDefault: '— (no skills)',
    meaning: 'folder of skills to publish; see [Skills](../guide/skills.md#skills-sep-2640)',
  }),
  'mocapi.skills.directory-read': setting({ option: 'skills.directoryRead', type: is.flag, default: true, meaning: 'serve `resources/directory/read` on skill folders' }),
  'mocapi.tasks.ttl': setting({
    option: 'tasks.ttl',
    type: is.positiveDurationMs,
    default: 'PT1H',
    meaning: 'ISO-8601 lifetime of a task, result included; see [Tools as tasks](../guide/tasks.md#tools-as-tasks-long-running-calls)',
  }),
  'mocapi.tasks.poll-interval': setting({ option: 'tasks.pollInterval', type: is.positiveDurationMs, default: 'PT1S', meaning: 'interval clients are asked to poll `tasks/get` at' }),
  'mocapi.tasks.lease': setting({ option: 'tasks.lease', type: is.positiveDurationMs, default: 'PT15S', meaning: 'lease of the instance running a task (a task whose lease ran out reads as failed)' }),
  'mocapi.tasks.max-per-client': setting({
    option: 'tasks.maxPerClient',
    type: is.integer,
    default: 100,
    shownDefault: "`100` (at most the client's share of `max-tasks`)",
    meaning: 'tasks one principal (or client address) may run at once; a finished one no longer counts (a value above `max-tasks` stops start-up)',
  }),
  'mocapi.tasks.client-ip-header': setting({ option: 'tasks.clientIpHeader', type: is.headerName, meaning: 'the former name of `store.clientIpHeader`, used when that is not set' }),
  'mocapi.limits.max-body-bytes': setting({ option: 'limits.maxBodyBytes', type: is.integer, default: 1_048_576, meaning: 'largest body (413 beyond)' }),
  'mocapi.limits.max-json-depth': setting({ option: 'limits.maxJsonDepth', type: is.integer, default: 64, meaning: 'deepest JSON nesting (400 beyond)' }),
  'mocapi.limits.call-timeout': setting({
    option: 'limits.callTimeout',
    type: is.durationMs,
    shownDefault: 'none',
    meaning: "ISO-8601 limit per call: then `-31008` and the call's `signal` fires",
  }),
  'mocapi.limits.shutdown-timeout': setting({ option: 'limits.shutdownTimeout', type: is.durationMs, default: 'PT10S', meaning: 'how long shutdown waits for calls in flight' }),
  'mocapi.limits.headers-timeout': setting({
    option: 'limits.headersTimeout',
    type: is.durationMs,
    default: 'PT10S',
    meaning: 'longest a client may take to send the headers (408 beyond; server-wide); at most `requestTimeout`',
  }),
  'mocapi.limits.request-timeout': setting({
    option: 'limits.requestTimeout',
    type: is.durationMs,
    default: 'PT30S',
    meaning: 'longest a client may take to send the whole request (408 beyond; server-wide, see [Production](../operations/production.md#production))',
  }),
  'mocapi.limits.body-timeout': setting({
    option: 'limits.bodyTimeout',
    type: is.positiveDurationMs,
    default: 'PT10S',
    meaning: 'longest a client may take to send a POST body to the endpoint (408 beyond); at most `requestTimeout`',
  }),
  'mocapi.invoker': setting({
    type: oneOf(INVOKERS, (got) => `must be "direct" or "nest"; got "${got}"`),
    default: 'direct',
    meaning:
      "`nest`: every call goes through Nest's `ExternalContextCreator` and every POST through the framework's router and hooks, as when something enhances it (for comparing both paths in tests)",
  }),
  'mocapi.auth.resource': setting({
    type: is.text,
    shownDefault: '— (no auth)',
    meaning:
      "the endpoint's public URL (`auth.resourceMetadata.resource`): turns [bearer auth](../guide/authorization.md#authorization-oauth-21-resource-server) on, with `mocapi.auth.issuer` or `mocapi.auth.introspection-endpoint`; see [From `.env`](../guide/oauth-clients.md#from-env)",
  }),
  'mocapi.auth.issuer': setting({ type: is.text, meaning: 'the JWT issuer: selects the JWT verifier' }),
  'mocapi.auth.authorization-servers': setting({ type: is.list, shownDefault: 'the issuer', meaning: 'authorization servers in the metadata, comma-separated' }),
  'mocapi.auth.scopes-supported': setting({ type: is.list, meaning: '`scopes_supported` in the metadata, comma-separated' }),
  'mocapi.auth.required-scopes': setting({ type: is.list, meaning: 'scopes every token needs, comma-separated' }),
  'mocapi.auth.resource-metadata-url': setting({ type: is.text, meaning: 'the metadata URL, when a proxy changes the public path' }),
  'mocapi.auth.audience': setting({ type: is.list, shownDefault: 'the resource', meaning: 'audiences accepted, comma-separated' }),
  'mocapi.auth.jwks-uri': setting({ type: is.text, shownDefault: "the issuer's", meaning: 'JWT: where the keys are' }),
  'mocapi.auth.algorithms': setting({ type: is.list, shownDefault: 'RSA, ECDSA and EdDSA', meaning: 'JWT: algorithms accepted, comma-separated' }),
  'mocapi.auth.clock-tolerance': setting({ type: is.seconds, shownDefault: '`PT5S`', meaning: 'skew allowed on `exp` / `nbf` (JWT and introspection)' }),
  'mocapi.auth.authorization-server-timeout': setting({
    type: is.positiveSeconds,
    shownDefault: '`PT5S`',
    meaning: "how long to wait for the IdP's metadata, keys or introspection endpoint (then 503)",
  }),
  'mocapi.auth.jwks-cache-max-age': setting({ type: is.seconds, shownDefault: '`PT10M`', meaning: 'JWT: how long the keys are kept' }),
  'mocapi.auth.jwks-cooldown': setting({ type: is.seconds, shownDefault: '`PT30S`', meaning: 'JWT: least time between two fetches of the keys' }),
  'mocapi.auth.allow-tokens-without-exp': setting({ type: is.flag, default: false, meaning: 'JWT: `true` accepts tokens without `exp` (they never expire)' }),
  'mocapi.auth.introspection-endpoint': setting({ type: is.text, meaning: 'selects the introspection verifier' }),
  'mocapi.auth.client-id': setting({ type: is.text, meaning: "introspection: this server's client id" }),
  'mocapi.auth.client-secret': setting({ type: is.text, meaning: "introspection: this server's client secret" }),
  'mocapi.auth.introspection-cache-ttl': setting({ type: is.seconds, shownDefault: '`PT30S`', meaning: 'introspection: how long an answer is kept' }),
  'mocapi.auth.introspection-cache-size': setting({ type: is.integer, shownDefault: '`10000`', meaning: 'introspection: most answers kept' }),
} as const;

/** A setting's config key. @internal */
export type SettingKey = keyof typeof SETTING_TABLE;
/** The value a setting resolves to. @internal */
export type SettingValue<K extends SettingKey> = (typeof SETTING_TABLE)[K] extends SettingDescriptor<infer T> ? T : never;
