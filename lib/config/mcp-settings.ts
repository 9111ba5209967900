import type { McpModuleOptions, McpProtocolPosture } from '../interfaces/mcp-module-options.interface.js';
import type { CacheScope, Implementation } from '../protocol/wire.types.js';
import { DEFAULT_ENDPOINT, DEFAULT_MRTR_TTL, DEFAULT_SESSION_TTL, DEFAULT_PAGE_SIZE, DEFAULT_STORE_KEY_PREFIX, DEFAULT_STORE_MAX_ENTRIES, DEFAULT_STORE_SHARES, DEFAULT_TASKS_PER_CLIENT, DEFAULT_CLIENT_SHARE, defaultStoreBudget } from '../mcp.constants.js';
import { parseIsoDuration } from './iso-duration.util.js';
import { resolveDeclaredPath } from './declaring-file.js';
import { serverCardSettings, type ServerCardSettings } from './server-card-settings.js';
import { flag } from './setting-values.js';
import { SettingSources, type ConfigReader } from './setting-sources.js';

export type { ConfigReader } from './setting-sources.js';

/** The store given in the options (typed from there: config/ does not import store/). */
type McpStoreOption = NonNullable<McpModuleOptions['store']>['instance'];
/** The bus given in the options (likewise typed from there). */
type McpBusOption = NonNullable<McpModuleOptions['store']>['bus'];
/** The auth options (typed from there: config/ does not import auth/). */
type McpAuthOption = NonNullable<McpModuleOptions['auth']>;
/** The most live records of each kind the store keeps (store/'s McpStoreBudgets). */
type StoreBudgets = Record<keyof typeof DEFAULT_STORE_SHARES, number>;

/** What the module runs with: explicit options, then `mocapi.*` config, then defaults. @internal */
export interface McpSettings {
  serverInfo: Implementation;
  instructions?: string;
  endpoint: string;
  /** The eras served: both (per request), 2026-07-28 only, or 2025 only. */
  protocol: McpProtocolPosture;
  /**
   * 2025-era sessions: how long a sealed `Mcp-Session-Id` stays valid, and how long a call waits for
   * the client's answer to one of its server→client requests (elicitation, sampling, roots).
   */
  session: { ttlMs: number; ttl: string; inputTimeoutMs: number };
  /** `undefined` = the localhost default. */
  allowedOrigins: readonly string[] | undefined;
  /** `undefined` = any host (Origin is what stops DNS rebinding). */
  allowedHosts: readonly string[] | undefined;
  pageSize: number;
  /** Whether `<endpoint>/playground` serves the playground page. */
  playground: boolean;
  /** The Server Card at `<endpoint>/server-card` and the AI Catalog that may list it. */
  serverCard: ServerCardSettings;
  mrtr: {
    secret: string | undefined;
    /** Keys that sealed before `secret` (base64, in order; parsed with it at start-up). `undefined`: none. */
    previousSecrets: readonly string[] | undefined;
    ttlMs: number;
    ttl: string;
    maxStateLength: number;
    maxInputResponses: number;
    acceptFirstRoundWithoutState: boolean;
  };
  /**
   * `instance` wins; else Redis when `redisUrl` is set; else in memory. `budgets`: the most live
   * records of each kind (they fit in `maxEntries`).
   */
  store: {
    instance: McpStoreOption;
    bus: McpBusOption;
    redisUrl: string | undefined;
    keyPrefix: string;
    maxEntries: number;
    budgets: StoreBudgets;
    /** Each client's share of each budget, and where a trusted proxy puts the client's address. */
    shares: { perClient: StoreBudgets; clientIpHeader: string | undefined };
    redisRequireNoeviction: boolean;
  };
  limits: {
    maxBodyBytes: number;
    maxJsonDepth: number;
    callTimeoutMs: number | undefined;
    shutdownTimeoutMs: number;
    /** Node's `server.requestTimeout` / `server.headersTimeout`: they apply to the whole HTTP server. */
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    /** How long the endpoint waits for a POST's body, from the end of its headers: then 408 (its own timer, not Node's). */
    bodyTimeoutMs: number;
  };
  cache: { ttlMs: number; cacheScope: CacheScope };
  /** `maxPerClient`: running tasks one principal (or, without auth, one client address) may hold. */
  tasks: { ttlMs: number; pollIntervalMs: number; leaseMs: number; maxPerClient: number };
  /** `directory` absent: no skills are published. */
  skills: { directory: string | undefined; directoryRead: boolean };
  /** Bearer-token auth: the options' `auth`, its ready verifier filled from `mocapi.auth.*`; or built from them alone. `undefined`: off. */
  auth: McpAuthOption | undefined;
}

function list(value: string | undefined): string[] | undefined {
  return value?.split(',').map((item) => item.trim()).filter(Boolean);
}

/** A comma-separated list whose empty entries are kept (an error names their position); blank: none. */
function entries(value: string | undefined): string[] | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.split(',').map((item) => item.trim());
}

function positiveInteger(value: string | number | undefined, key: string, fallback: number, allowZero = false): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < (allowZero ? 0 : 1)) {
    throw new Error(`${key} must be a ${allowZero ? 'non-negative' : 'positive'} integer; got "${value}"`);
  }
  return number;
}

function duration(key: string, value: string): number {
  try {
    return parseIsoDuration(value);
  } catch (error) {
    throw new Error(`${key}: ${(error as Error).message}`);
  }
}

/**
 * The wait for a 2025 client's answer: at most the requestState lifetime (`mrtr.ttl`, the default),
 * since the handler is re-run with the requestState it returned before the wait.
 */
function inputTimeout(value: string | undefined, requestStateTtlMs: number): number {
  if (value === undefined) return requestStateTtlMs;
  const ms = positiveDuration('mocapi.session.input-timeout', value);
  if (ms > requestStateTtlMs) {
    throw new Error(`mocapi.session.input-timeout (${value}) must not exceed mocapi.mrtr.ttl: the handler is re-run with a requestState that lives that long`);
  }
  return ms;
}

/** A duration that must not be zero (a task TTL of 0 would be gone before it is read). */
function positiveDuration(key: string, value: string): number {
  const ms = duration(key, value);
  if (ms <= 0) throw new Error(`${key} must be longer than zero; got "${value}"`);
  return ms;
}

function nodeEnv(config: ConfigReader | undefined): string | undefined {
  const value = config?.get('NODE_ENV') ?? process.env.NODE_ENV;
  return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}

const POSTURES: readonly McpProtocolPosture[] = ['dual', 'modern', 'legacy'];

/** The budgets of the three record kinds: as set, else their shares of max-entries; together within it. */
function budgets(options: McpModuleOptions['store'], read: (key: string) => string | undefined, maxEntries: number): StoreBudgets {
  const budget = (value: string | number | undefined, key: string, kind: keyof StoreBudgets) => positiveInteger(value, key, defaultStoreBudget(maxEntries, kind));
  const result: StoreBudgets = {
    claim: budget(options?.maxClaims ?? read('mocapi.store.max-claims'), 'mocapi.store.max-claims', 'claim'),
    task: budget(options?.maxTasks ?? read('mocapi.store.max-tasks'), 'mocapi.store.max-tasks', 'task'),
    'session-end': budget(options?.maxSessionEnds ?? read('mocapi.store.max-session-ends'), 'mocapi.store.max-session-ends', 'session-end'),
  };
  const total = result.claim + result.task + result['session-end'];
  if (total > maxEntries) {
    throw new Error(
      `mocapi.store.max-claims + max-tasks + max-session-ends (${result.claim} + ${result.task} + ${result['session-end']} = ${total}) ` +
        `must not exceed mocapi.store.max-entries (${maxEntries})`,
    );
  }
  return result;
}

/** A fraction of a budget: more than 0, at most 1. */
function fraction(value: string | number | undefined, key: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = typeof value === 'string' && value.trim() === '' ? NaN : Number(value);
  if (!Number.isFinite(number) || number <= 0 || number > 1) throw new Error(`${key} must be a fraction more than 0 and at most 1 (e.g. 0.02); got "${value}"`);
  return number;
}

/** `share` of each budget, at least one record. */
function sharesOf(budgets: StoreBudgets, share: number): StoreBudgets {
  const of = (kind: keyof StoreBudgets) => Math.max(1, Math.floor(budgets[kind] * share));
  return { claim: of('claim'), task: of('task'), 'session-end': of('session-end') };
}

/** Running tasks per client: as set (at most the tasks budget), else 100 or the client's share when smaller. */
function maxTasksPerClient(value: string | number | undefined, taskBudget: number, taskShare: number): number {
  const limit = positiveInteger(value, 'mocapi.tasks.max-per-client', Math.min(DEFAULT_TASKS_PER_CLIENT, taskShare));
  if (limit > taskBudget) {
    throw new Error(`mocapi.tasks.max-per-client (${limit}) must not exceed mocapi.store.max-tasks (${taskBudget}): one client could hold every task`);
  }
  return limit;
}

/** An HTTP header name (a token), in lower case as Node keys headers. */
function headerName(value: string | undefined, key: string): string | undefined {
  if (value === undefined) return undefined;
  const name = value.trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) throw new Error(`${key} must be an HTTP header name; got "${value}"`);
  return name;
}

/**
 * `mocapi.auth.*`: the ready verifier (`introspection-endpoint` → token introspection, else `issuer` →
 * JWT) and, when `forRoot()` has no `auth`, the whole of it from `resource` on. URLs are checked by the
 * verifiers, at start-up.
 */
function authSettings(option: McpAuthOption | undefined, read: (key: string) => string | undefined): McpAuthOption | undefined {
  // The verifiers take seconds; `.env` gives ISO-8601 durations, as for every other mocapi key.
  const seconds = (key: string) => {
    const value = read(key);
    return value === undefined ? undefined : duration(key, value) / 1000;
  };
  const timeout = read('mocapi.auth.authorization-server-timeout');
  // What both verifiers take: the clock skew allowed on exp / nbf, and how long the authorization server may take.
  const common = {
    ...(seconds('mocapi.auth.clock-tolerance') !== undefined && { clockToleranceSeconds: seconds('mocapi.auth.clock-tolerance') }),
    ...(timeout !== undefined && { timeoutSeconds: positiveDuration('mocapi.auth.authorization-server-timeout', timeout) / 1000 }),
  };
  const issuer = read('mocapi.auth.issuer');
  const audience = list(read('mocapi.auth.audience'));
  const endpoint = read('mocapi.auth.introspection-endpoint');
  const cacheSize = read('mocapi.auth.introspection-cache-size');
  const introspection = endpoint && {
    endpoint,
    clientId: read('mocapi.auth.client-id') ?? '',
    clientSecret: read('mocapi.auth.client-secret') ?? '',
    ...(audience && { audience }),
    ...(issuer && { issuer }),
    ...(seconds('mocapi.auth.introspection-cache-ttl') !== undefined && { cacheTtlSeconds: seconds('mocapi.auth.introspection-cache-ttl') }),
    ...(cacheSize && { cacheSize: positiveInteger(cacheSize, 'mocapi.auth.introspection-cache-size', 10_000) }),
    ...common,
  };
  const algorithms = list(read('mocapi.auth.algorithms'));
  const withoutExp = read('mocapi.auth.allow-tokens-without-exp');
  const jwt = !endpoint && issuer && {
    issuer,
    ...(audience && { audience }),
    ...(read('mocapi.auth.jwks-uri') && { jwksUri: read('mocapi.auth.jwks-uri') }),
    ...(algorithms && { algorithms }),
    ...(seconds('mocapi.auth.jwks-cache-max-age') !== undefined && { jwksCacheMaxAgeSeconds: seconds('mocapi.auth.jwks-cache-max-age') }),
    ...(seconds('mocapi.auth.jwks-cooldown') !== undefined && { jwksCooldownSeconds: seconds('mocapi.auth.jwks-cooldown') }),
    ...(withoutExp !== undefined && { allowTokensWithoutExp: flag(withoutExp, 'mocapi.auth.allow-tokens-without-exp', false) }),
    ...common,
  };
  const verifier = introspection ? { introspection } : jwt ? { jwt } : {};
  if (option) return option.verifier || option.jwt || option.introspection ? option : { ...option, ...verifier };
  const resource = read('mocapi.auth.resource');
  if (!resource) {
    if (issuer || endpoint) throw new Error('mocapi.auth.resource (the MCP endpoint\'s public URL) must be set with mocapi.auth.issuer or mocapi.auth.introspection-endpoint');
    return undefined;
  }
  if (!issuer && !endpoint) throw new Error('mocapi.auth.resource is set: set mocapi.auth.issuer (JWT access tokens) or mocapi.auth.introspection-endpoint (opaque tokens) too');
  const scopes = list(read('mocapi.auth.scopes-supported'));
  const required = list(read('mocapi.auth.required-scopes'));
  const metadataUrl = read('mocapi.auth.resource-metadata-url');
  return {
    ...verifier,
    resourceMetadata: {
      resource,
      authorization_servers: list(read('mocapi.auth.authorization-servers')) ?? (issuer ? [issuer] : []),
      ...(scopes && { scopes_supported: scopes }),
    },
    ...(required && { requiredScopes: required }),
    ...(metadataUrl && { resourceMetadataUrl: metadataUrl }),
  };
}

/**
 * @param declaredIn the directory of the file that called `forRoot()`: paths given in the options
 * resolve from there, paths from config from the working directory.
 */
export function resolveMcpSettings(options: McpModuleOptions = {}, config?: ConfigReader, declaredIn?: string): McpSettings {
  const sources = new SettingSources(options, config);
  try {
    return sources.describe(settingsOf(options, config, sources, declaredIn));
  } catch (error) {
    throw sources.configurationError(error);
  }
}

/**
 * Each `mocapi.*` key is read as written (`mocapi.mrtr.ttl`, as loaded by `registerAs` or a config
 * factory), then in its environment form (`MOCAPI_MRTR_TTL`) so `.env` files work; options win.
 */
function settingsOf(options: McpModuleOptions, config: ConfigReader | undefined, sources: SettingSources, declaredIn: string | undefined): McpSettings {
  const read = (key: string) => sources.read(key);
  const endpoint = options.endpoint ?? read('mocapi.endpoint') ?? DEFAULT_ENDPOINT;
  const ttl = options.mrtr?.ttl ?? read('mocapi.mrtr.ttl') ?? DEFAULT_MRTR_TTL;
  const ttlMs = duration('mocapi.mrtr.ttl', ttl);
  const callTimeout = options.limits?.callTimeout ?? read('mocapi.limits.call-timeout');
  const shutdownTimeout = options.limits?.shutdownTimeout ?? read('mocapi.limits.shutdown-timeout') ?? 'PT10S';
  const requestTimeoutMs = duration('mocapi.limits.request-timeout', options.limits?.requestTimeout ?? read('mocapi.limits.request-timeout') ?? 'PT30S');
  const headersTimeoutMs = duration('mocapi.limits.headers-timeout', options.limits?.headersTimeout ?? read('mocapi.limits.headers-timeout') ?? 'PT10S');
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error('mocapi.limits.headers-timeout must not be longer than mocapi.limits.request-timeout');
  }
  const bodyTimeoutMs = positiveDuration('mocapi.limits.body-timeout', options.limits?.bodyTimeout ?? read('mocapi.limits.body-timeout') ?? 'PT10S');
  if (bodyTimeoutMs > requestTimeoutMs) {
    throw new Error('mocapi.limits.body-timeout must not be longer than mocapi.limits.request-timeout (which bounds the whole request)');
  }
  const cacheScope = (options.cache?.cacheScope ?? read('mocapi.cache.scope') ?? 'private') as CacheScope;
  if (cacheScope !== 'public' && cacheScope !== 'private') {
    throw new Error(`mocapi.cache.scope must be "public" or "private"; got "${cacheScope}"`);
  }
  const title = options.title ?? read('mocapi.server.title');
  const protocol = (options.protocol ?? read('mocapi.protocol') ?? 'dual') as McpProtocolPosture;
  if (!POSTURES.includes(protocol)) {
    throw new Error(`mocapi.protocol must be one of ${POSTURES.map((p) => `"${p}"`).join(', ')}; got "${protocol}"`);
  }
  const sessionTtl = options.session?.ttl ?? read('mocapi.session.ttl') ?? DEFAULT_SESSION_TTL;
  const maxEntries = positiveInteger(options.store?.maxEntries ?? read('mocapi.store.max-entries'), 'mocapi.store.max-entries', DEFAULT_STORE_MAX_ENTRIES);
  const storeBudget = budgets(options.store, read, maxEntries);
  const perClient = sharesOf(storeBudget, fraction(options.store?.clientShare ?? read('mocapi.store.client-share'), 'mocapi.store.client-share', DEFAULT_CLIENT_SHARE));
  const maxPerClient = maxTasksPerClient(options.tasks?.maxPerClient ?? read('mocapi.tasks.max-per-client'), storeBudget.task, perClient.task);
  // A client may always keep as many tasks as it may run at once.
  perClient.task = Math.max(perClient.task, maxPerClient);
  const clientIpHeader =
    headerName(options.store?.clientIpHeader ?? read('mocapi.store.client-ip-header'), 'mocapi.store.client-ip-header') ??
    headerName(options.tasks?.clientIpHeader ?? read('mocapi.tasks.client-ip-header'), 'mocapi.tasks.client-ip-header');
  const serverInfo: Implementation = {
    name: options.name ?? read('mocapi.server.name') ?? 'nest-mcp-server',
    version: options.version ?? read('mocapi.server.version') ?? '0.0.0',
    ...(title ? { title } : {}),
  };
  return {
    serverInfo,
    instructions: options.instructions ?? read('mocapi.server.instructions'),
    endpoint: endpoint.startsWith('/') ? endpoint : `/${endpoint}`,
    protocol,
    session: {
      ttl: sessionTtl,
      ttlMs: duration('mocapi.session.ttl', sessionTtl),
      inputTimeoutMs: inputTimeout(options.session?.inputTimeout ?? read('mocapi.session.input-timeout'), ttlMs),
    },
    allowedOrigins: options.allowedOrigins ?? list(read('mocapi.allowed-origins')),
    allowedHosts: options.allowedHosts ?? list(read('mocapi.allowed-hosts')),
    // A development tool: off in production unless forced on.
    playground: flag(options.playground ?? read('mocapi.playground'), 'mocapi.playground', nodeEnv(config) !== 'production'),
    serverCard: serverCardSettings(options.serverCard, read, serverInfo),
    pageSize: positiveInteger(options.pageSize ?? read('mocapi.page-size'), 'mocapi.page-size', DEFAULT_PAGE_SIZE),
    mrtr: {
      // A blank secret is kept (and refused at start-up), not taken for none (an ephemeral key).
      secret: options.mrtr?.secret ?? read('mocapi.mrtr.secret') ?? (sources.isBlank('mocapi.mrtr.secret') ? '' : undefined),
      previousSecrets: options.mrtr?.previousSecrets ?? entries(read('mocapi.mrtr.previous-secrets')),
      ttlMs,
      ttl,
      maxStateLength: positiveInteger(options.mrtr?.maxStateLength ?? read('mocapi.mrtr.max-state-length'), 'mocapi.mrtr.max-state-length', 65_536),
      maxInputResponses: positiveInteger(
        options.mrtr?.maxInputResponses ?? read('mocapi.mrtr.max-input-responses'),
        'mocapi.mrtr.max-input-responses',
        32,
      ),
      acceptFirstRoundWithoutState: flag(
        options.mrtr?.acceptFirstRoundWithoutState ?? read('mocapi.mrtr.accept-first-round-without-state'),
        'mocapi.mrtr.accept-first-round-without-state',
        false,
      ),
    },
    store: {
      instance: options.store?.instance,
      bus: options.store?.bus,
      redisUrl: options.store?.redisUrl ?? read('mocapi.store.redis-url'),
      keyPrefix: options.store?.keyPrefix ?? read('mocapi.store.key-prefix') ?? DEFAULT_STORE_KEY_PREFIX,
      maxEntries,
      budgets: storeBudget,
      shares: { perClient, clientIpHeader },
      redisRequireNoeviction: flag(
        options.store?.redisRequireNoeviction ?? read('mocapi.store.redis-require-noeviction'),
        'mocapi.store.redis-require-noeviction',
        false,
      ),
    },
    limits: {
      maxBodyBytes: positiveInteger(options.limits?.maxBodyBytes ?? read('mocapi.limits.max-body-bytes'), 'mocapi.limits.max-body-bytes', 1_048_576),
      maxJsonDepth: positiveInteger(options.limits?.maxJsonDepth ?? read('mocapi.limits.max-json-depth'), 'mocapi.limits.max-json-depth', 64),
      callTimeoutMs: callTimeout === undefined ? undefined : duration('mocapi.limits.call-timeout', callTimeout),
      shutdownTimeoutMs: duration('mocapi.limits.shutdown-timeout', shutdownTimeout),
      requestTimeoutMs,
      headersTimeoutMs,
      bodyTimeoutMs,
    },
    tasks: {
      ttlMs: positiveDuration('mocapi.tasks.ttl', options.tasks?.ttl ?? read('mocapi.tasks.ttl') ?? 'PT1H'),
      pollIntervalMs: positiveDuration('mocapi.tasks.poll-interval', options.tasks?.pollInterval ?? read('mocapi.tasks.poll-interval') ?? 'PT1S'),
      leaseMs: positiveDuration('mocapi.tasks.lease', options.tasks?.lease ?? read('mocapi.tasks.lease') ?? 'PT15S'),
      maxPerClient,
    },
    cache: {
      ttlMs: positiveInteger(options.cache?.ttlMs ?? read('mocapi.cache.ttl-ms'), 'mocapi.cache.ttl-ms', 0, true),
      cacheScope,
    },
    skills: {
      directory: declaredPath(options.skills?.directory, declaredIn) ?? declaredPath(read('mocapi.skills.directory'), undefined),
      directoryRead: flag(options.skills?.directoryRead ?? read('mocapi.skills.directory-read'), 'mocapi.skills.directory-read', true),
    },
    auth: authSettings(options.auth, read),
  };
}

function declaredPath(given: string | URL | undefined, declaredIn: string | undefined): string | undefined {
  return given === undefined ? undefined : resolveDeclaredPath(given, declaredIn);
}
