import { Logger } from '@nestjs/common';
import type { McpModuleOptions, McpProtocolPosture } from '../interfaces/mcp-module-options.interface.js';
import type { CacheScope, Implementation } from '../protocol/wire.types.js';
import { DEFAULT_STORE_SHARES, defaultStoreBudget } from '../mcp.constants.js';
import { parseIsoDuration } from './iso-duration.util.js';
import { resolveDeclaredPath } from './declaring-file.js';
import { serverCardSettings, type ServerCardSettings } from './server-card-settings.js';
import { SettingSources, type ConfigReader } from './setting-sources.js';
import type { McpInvokerPath, SettingKey, SettingValue } from './setting-table.js';
import { unknownSettingWarnings } from './unknown-settings.js';

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
  /** `nest`: no handler is called directly and no POST skips the framework's router (`mocapi.invoker`). */
  invoker: McpInvokerPath;
  /** Bearer-token auth: the options' `auth`, its ready verifier filled from `mocapi.auth.*`; or built from them alone. `undefined`: off. */
  auth: McpAuthOption | undefined;
}

function nodeEnv(config: ConfigReader | undefined): string | undefined {
  const value = config?.get('NODE_ENV') ?? process.env.NODE_ENV;
  return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}

/**
 * The wait for a 2025 client's answer: at most the requestState lifetime (`mrtr.ttl`, the default),
 * since the handler is re-run with the requestState it returned before the wait.
 */
function inputTimeout(setting: SettingSources, requestStateTtlMs: number): number {
  const ms = setting.given('mocapi.session.input-timeout');
  if (ms === undefined) return requestStateTtlMs;
  if (ms > requestStateTtlMs) {
    throw new Error(`mocapi.session.input-timeout (${String(setting.optionOf('mocapi.session.input-timeout') ?? setting.read('mocapi.session.input-timeout'))}) must not exceed mocapi.mrtr.ttl: the handler is re-run with a requestState that lives that long`);
  }
  return ms;
}

/** The budgets of the three record kinds: as set, else their shares of max-entries; together within it. */
function budgets(setting: SettingSources, maxEntries: number): StoreBudgets {
  const result: StoreBudgets = {
    claim: setting.given('mocapi.store.max-claims') ?? defaultStoreBudget(maxEntries, 'claim'),
    task: setting.given('mocapi.store.max-tasks') ?? defaultStoreBudget(maxEntries, 'task'),
    'session-end': setting.given('mocapi.store.max-session-ends') ?? defaultStoreBudget(maxEntries, 'session-end'),
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

/** `share` of each budget, at least one record. */
function sharesOf(budgets: StoreBudgets, share: number): StoreBudgets {
  const of = (kind: keyof StoreBudgets) => Math.max(1, Math.floor(budgets[kind] * share));
  return { claim: of('claim'), task: of('task'), 'session-end': of('session-end') };
}

/** Running tasks per client: as set (at most the tasks budget), else the default or the client's share when smaller. */
function maxTasksPerClient(setting: SettingSources, taskBudget: number, taskShare: number): number {
  const limit = setting.given('mocapi.tasks.max-per-client') ?? Math.min(setting.value('mocapi.tasks.max-per-client') as number, taskShare);
  if (limit > taskBudget) {
    throw new Error(`mocapi.tasks.max-per-client (${limit}) must not exceed mocapi.store.max-tasks (${taskBudget}): one client could hold every task`);
  }
  return limit;
}

/**
 * `mocapi.auth.*`: the ready verifier (`introspection-endpoint` → token introspection, else `issuer` →
 * JWT) and, when `forRoot()` has no `auth`, the whole of it from `resource` on. URLs are checked by the
 * verifiers, at start-up.
 */
function authSettings(option: McpAuthOption | undefined, setting: SettingSources): McpAuthOption | undefined {
  const clockTolerance = setting.value('mocapi.auth.clock-tolerance');
  const timeout = setting.value('mocapi.auth.authorization-server-timeout');
  // What both verifiers take: the clock skew allowed on exp / nbf, and how long the authorization server may take.
  const common = {
    ...(clockTolerance !== undefined && { clockToleranceSeconds: clockTolerance }),
    ...(timeout !== undefined && { timeoutSeconds: timeout }),
  };
  const issuer = setting.value('mocapi.auth.issuer');
  const audience = setting.value('mocapi.auth.audience');
  const endpoint = setting.value('mocapi.auth.introspection-endpoint');
  const introspection = endpoint && {
    endpoint,
    clientId: setting.value('mocapi.auth.client-id') ?? '',
    clientSecret: setting.value('mocapi.auth.client-secret') ?? '',
    ...(audience && { audience }),
    ...(issuer && { issuer }),
    ...optional('cacheTtlSeconds', setting.value('mocapi.auth.introspection-cache-ttl')),
    ...optional('cacheSize', setting.value('mocapi.auth.introspection-cache-size')),
    ...common,
  };
  const algorithms = setting.value('mocapi.auth.algorithms');
  const jwt = !endpoint && issuer && {
    issuer,
    ...(audience && { audience }),
    ...optional('jwksUri', setting.value('mocapi.auth.jwks-uri')),
    ...(algorithms && { algorithms }),
    ...optional('jwksCacheMaxAgeSeconds', setting.value('mocapi.auth.jwks-cache-max-age')),
    ...optional('jwksCooldownSeconds', setting.value('mocapi.auth.jwks-cooldown')),
    ...optional('allowTokensWithoutExp', setting.given('mocapi.auth.allow-tokens-without-exp')),
    ...common,
  };
  const verifier = introspection ? { introspection } : jwt ? { jwt } : {};
  if (option) return option.verifier || option.jwt || option.introspection ? option : { ...option, ...verifier };
  const resource = setting.value('mocapi.auth.resource');
  if (!resource) {
    if (issuer || endpoint) throw new Error('mocapi.auth.resource (the MCP endpoint\'s public URL) must be set with mocapi.auth.issuer or mocapi.auth.introspection-endpoint');
    return undefined;
  }
  if (!issuer && !endpoint) throw new Error('mocapi.auth.resource is set: set mocapi.auth.issuer (JWT access tokens) or mocapi.auth.introspection-endpoint (opaque tokens) too');
  const scopes = setting.value('mocapi.auth.scopes-supported');
  const required = setting.value('mocapi.auth.required-scopes');
  const metadataUrl = setting.value('mocapi.auth.resource-metadata-url');
  return {
    ...verifier,
    resourceMetadata: {
      resource,
      authorization_servers: setting.value('mocapi.auth.authorization-servers') ?? (issuer ? [issuer] : []),
      ...(scopes && { scopes_supported: scopes }),
    },
    ...(required && { requiredScopes: required }),
    ...(metadataUrl && { resourceMetadataUrl: metadataUrl }),
  };
}

/** `{ [name]: value }` when there is a value, else nothing to spread. */
function optional<N extends string, T>(name: N, value: T | undefined): { [key in N]?: T } {
  return value === undefined ? {} : ({ [name]: value } as { [key in N]: T });
}

/**
 * @param declaredIn the directory of the file that called `forRoot()`: paths given in the options
 * resolve from there, paths from config from the working directory.
 */
export function resolveMcpSettings(options: McpModuleOptions = {}, config?: ConfigReader, declaredIn?: string): McpSettings {
  // Before resolving: a misspelled name may be why a setting below is missing.
  for (const warning of unknownSettingWarnings(config)) new Logger('McpModule').warn(warning);
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
 * The table resolves each setting; the rules between settings follow.
 */
function settingsOf(options: McpModuleOptions, config: ConfigReader | undefined, setting: SettingSources, declaredIn: string | undefined): McpSettings {
  const value = <K extends SettingKey>(key: K) => setting.value(key) as SettingValue<K>;
  const ttl = value('mocapi.mrtr.ttl');
  const ttlMs = parseIsoDuration(ttl);
  const callTimeoutMs = setting.value('mocapi.limits.call-timeout');
  const shutdownTimeoutMs = value('mocapi.limits.shutdown-timeout');
  const requestTimeoutMs = value('mocapi.limits.request-timeout');
  const headersTimeoutMs = value('mocapi.limits.headers-timeout');
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error('mocapi.limits.headers-timeout must not be longer than mocapi.limits.request-timeout');
  }
  const bodyTimeoutMs = value('mocapi.limits.body-timeout');
  if (bodyTimeoutMs > requestTimeoutMs) {
    throw new Error('mocapi.limits.body-timeout must not be longer than mocapi.limits.request-timeout (which bounds the whole request)');
  }
  const cacheScope = value('mocapi.cache.scope');
  const title = setting.value('mocapi.server.title');
  const protocol = value('mocapi.protocol');
  const sessionTtl = value('mocapi.session.ttl');
  const maxEntries = value('mocapi.store.max-entries');
  const storeBudget = budgets(setting, maxEntries);
  const perClient = sharesOf(storeBudget, value('mocapi.store.client-share'));
  const maxPerClient = maxTasksPerClient(setting, storeBudget.task, perClient.task);
  // A client may always keep as many tasks as it may run at once.
  perClient.task = Math.max(perClient.task, maxPerClient);
  const clientIpHeader = setting.value('mocapi.store.client-ip-header') ?? setting.value('mocapi.tasks.client-ip-header');
  const serverInfo: Implementation = {
    name: value('mocapi.server.name'),
    version: value('mocapi.server.version'),
    ...(title ? { title } : {}),
  };
  const skillsDirectory = setting.value('mocapi.skills.directory');
  return {
    serverInfo,
    instructions: setting.value('mocapi.server.instructions'),
    endpoint: value('mocapi.endpoint'),
    protocol,
    session: { ttl: sessionTtl, ttlMs: parseIsoDuration(sessionTtl), inputTimeoutMs: inputTimeout(setting, ttlMs) },
    allowedOrigins: setting.value('mocapi.allowed-origins'),
    allowedHosts: setting.value('mocapi.allowed-hosts'),
    // A development tool: off in production unless forced on.
    playground: setting.value('mocapi.playground') ?? nodeEnv(config) !== 'production',
    serverCard: serverCardSettings(options.serverCard, setting, serverInfo),
    pageSize: value('mocapi.page-size'),
    mrtr: {
      // A blank secret is kept (and refused at start-up), not taken for none (an ephemeral key).
      secret: setting.value('mocapi.mrtr.secret'),
      previousSecrets: setting.value('mocapi.mrtr.previous-secrets'),
      ttlMs,
      ttl,
      maxStateLength: value('mocapi.mrtr.max-state-length'),
      maxInputResponses: value('mocapi.mrtr.max-input-responses'),
      acceptFirstRoundWithoutState: value('mocapi.mrtr.accept-first-round-without-state'),
    },
    store: {
      instance: options.store?.instance,
      bus: options.store?.bus,
      redisUrl: setting.value('mocapi.store.redis-url'),
      keyPrefix: value('mocapi.store.key-prefix'),
      maxEntries,
      budgets: storeBudget,
      shares: { perClient, clientIpHeader },
      redisRequireNoeviction: value('mocapi.store.redis-require-noeviction'),
    },
    limits: {
      maxBodyBytes: value('mocapi.limits.max-body-bytes'),
      maxJsonDepth: value('mocapi.limits.max-json-depth'),
      callTimeoutMs,
      shutdownTimeoutMs,
      requestTimeoutMs,
      headersTimeoutMs,
      bodyTimeoutMs,
    },
    tasks: {
      ttlMs: value('mocapi.tasks.ttl'),
      pollIntervalMs: value('mocapi.tasks.poll-interval'),
      leaseMs: value('mocapi.tasks.lease'),
      maxPerClient,
    },
    cache: { ttlMs: value('mocapi.cache.ttl-ms'), cacheScope },
    skills: {
      // Paths given in the options resolve from the file that called forRoot(), paths from config from the working directory.
      directory: skillsDirectory === undefined ? undefined : resolveDeclaredPath(skillsDirectory, setting.optionOf('mocapi.skills.directory') === undefined ? undefined : declaredIn),
      directoryRead: value('mocapi.skills.directory-read'),
    },
    invoker: value('mocapi.invoker'),
    auth: authSettings(options.auth, setting),
  };
}
