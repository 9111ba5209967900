import type { MeterProvider, TracerProvider } from '@opentelemetry/api';
import type { McpAuthOptions } from '../auth/mcp-auth.interfaces.js';
import type { CacheScope, Icon } from '../protocol/wire.types.js';
import type { McpBus } from '../bus/mcp-bus.js';
import type { McpStore } from '../store/mcp-store.js';

/** The eras an endpoint serves (see `McpModuleOptions.protocol`). @publicApi */
export type McpProtocolPosture = 'dual' | 'modern' | 'legacy';

/**
 * Options of `McpModule.forRoot()` / `forRootAsync()`. Every field is optional: what is not
 * given here is read from `ConfigService` (`mocapi.*` keys), then falls back to the defaults.
 * @publicApi
 */
export interface McpModuleOptions {
  /** Server name in `serverInfo`. Config: `mocapi.server.name`. Default: the package name or `nest-mcp-server`. */
  name?: string;
  /** Server version in `serverInfo`. Config: `mocapi.server.version`. Default `0.0.0`. */
  version?: string;
  /** Display title in `serverInfo`. Config: `mocapi.server.title`. */
  title?: string;
  /** Guidance for the model, returned by `server/discover`. Config: `mocapi.server.instructions`. */
  instructions?: string;
  /** Path of the MCP endpoint. Config: `mocapi.endpoint`. Default `/mcp`. */
  endpoint?: string;
  /**
   * Which clients the endpoint serves: `'dual'` both eras, chosen per request (2026-07-28 requests by
   * their `_meta`, 2025 clients by `initialize` and their session); `'modern'` 2026-07-28 only;
   * `'legacy'` 2025-11-25 (down to 2025-03-26) only. Config: `mocapi.protocol`. Default `'dual'`.
   */
  protocol?: McpProtocolPosture;
  /** Sessions of 2025-era clients (sealed `Mcp-Session-Id`s, keyed by `mrtr.secret`). */
  session?: {
    /** ISO-8601 duration a session lasts after initialize. Config: `mocapi.session.ttl`. Default `PT24H`. */
    ttl?: string;
    /**
     * ISO-8601 duration a 2025 call waits for the client's answer to a question it was sent
     * (`elicitation/create`, `sampling/createMessage`, `roots/list`); then the request is cancelled
     * and the call fails. Config: `mocapi.session.input-timeout`. Default and
     * maximum: `mrtr.ttl` (the handler is re-run with the requestState it returned before the wait).
     */
    inputTimeout?: string;
  };
  /**
   * Origins allowed to call the endpoint (DNS-rebinding protection). Config: `mocapi.allowed-origins`
   * (comma-separated). Default: any origin whose host is localhost, 127.0.0.1 or [::1].
   * `'*'` allows every origin.
   */
  allowedOrigins?: string[];
  /** Hosts (`Host` header, port ignored) allowed. Config: `mocapi.allowed-hosts`. Default: any host. */
  allowedHosts?: string[];
  /**
   * Serve the playground, a page to try tools, prompts and resources from a browser, at
   * `<endpoint>/playground`. Config: `mocapi.playground` (`MOCAPI_PLAYGROUND`, `true`/`false`).
   * Default: on unless `NODE_ENV` is `production`.
   */
  playground?: boolean;
  /**
   * The Server Card (SEP-2127) at `<endpoint>/server-card`: a public document that lets a client see
   * the server (who it is, where and how to connect) before it connects. Its name, version and title
   * are `serverInfo`'s; it needs a description and a reverse-DNS name (see the fields).
   */
  serverCard?: McpServerCardOptions;
  /** Page size of the list methods. Config: `mocapi.page-size`. Default 100. */
  pageSize?: number;
  /** Multi round-trip request (elicitation) settings. */
  mrtr?: {
    /**
     * Base64 256-bit key that encrypts `requestState` and 2025 session ids (the current key: it seals).
     * Config: `mocapi.mrtr.secret`. Default: ephemeral, with a warning. A blank value (empty or spaces,
     * as `MOCAPI_MRTR_SECRET=` in `.env` gives) stops start-up: it is a missing key, not a request for none.
     */
    secret?: string;
    /**
     * Base64 256-bit keys that sealed before `secret`: what they sealed still opens, nothing new is
     * sealed with them. For rotating the key without dropping rounds or sessions (docs/operations/secret-rotation.md);
     * needs `secret`. Config: `mocapi.mrtr.previous-secrets` (comma-separated). Default: none.
     */
    previousSecrets?: string[];
    /** ISO-8601 duration a round trip may take. Config: `mocapi.mrtr.ttl`. Default `PT5M`. */
    ttl?: string;
    /** Longest `requestState` accepted, in characters. Config: `mocapi.mrtr.max-state-length`. Default 65536. */
    maxStateLength?: number;
    /** Most `inputResponses` entries accepted in one request. Config: `mocapi.mrtr.max-input-responses`. Default 32. */
    maxInputResponses?: number;
    /**
     * Take answers to the first question from a request that has no requestState, as the official
     * conformance suite sends them. Config: `mocapi.mrtr.accept-first-round-without-state`. Default
     * false: answers count only for questions the server asked, proven by its requestState.
     */
    acceptFirstRoundWithoutState?: boolean;
  };
  /** Tools that run as tasks (`@McpTool({ task })`, the `io.modelcontextprotocol/tasks` extension). */
  tasks?: {
    /** ISO-8601 lifetime of a task from its creation, result included; then it is gone (-32602). Config: `mocapi.tasks.ttl`. Default `PT1H`. */
    ttl?: string;
    /** ISO-8601 interval clients are asked to poll `tasks/get` at. Config: `mocapi.tasks.poll-interval`. Default `PT1S`. */
    pollInterval?: string;
    /**
     * ISO-8601 lease of the instance running a task; it renews the lease (and checks for a
     * cancellation from another instance) every third of it. A task whose lease ran out (its
     * instance died) reads as failed. Config: `mocapi.tasks.lease`. Default `PT15S`.
     */
    lease?: string;
    /**
     * Most running tasks (working or waiting for input) one caller may hold: the token's principal with
     * auth, else the client's address (IPv6 by /64). A finished task no longer counts (it stays
     * readable until `ttl`, in the caller's share of the store). Past it, tools/call as a task gets
     * -31429 (HTTP 429, Retry-After). Config: `mocapi.tasks.max-per-client`. Default 100 (at most the
     * client's share of `store.maxTasks`).
     */
    maxPerClient?: number;
    /** The former name of `store.clientIpHeader` (used when that is not set). Config: `mocapi.tasks.client-ip-header`. */
    clientIpHeader?: string;
  };
  /** Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640), published from a folder. */
  skills?: {
    /**
     * A folder of skill directories, each with a `SKILL.md` (YAML frontmatter with `name` and
     * `description`); a nested folder is a skill path (`acme/billing/refunds`). Read once at start-up.
     * A `file:` URL, an absolute path, or a path relative to the file that calls `forRoot()` /
     * `forRootAsync()`; from config (`mocapi.skills.directory`), relative to the working directory.
     * Default: no skills.
     */
    directory?: string | URL;
    /** Serve `resources/directory/read` on skill folders. Config: `mocapi.skills.directory-read`. Default true. */
    directoryRead?: boolean;
  };
  /**
   * Server-side state shared by requests (and by instances, with Redis): each requestState is
   * accepted once. Default: in memory, per instance.
   */
  store?: {
    /** A store of your own (e.g. `new RedisMcpStore(client)`); wins over the settings below. The module does not close it. */
    instance?: McpStore;
    /**
     * A bus of your own (e.g. `new RedisMcpBus(publisher, subscriber)`): what crosses instances live
     * (2025 answers, change notifications, cancels). Default: Redis pub/sub when `redisUrl` is set,
     * else this process alone. The module does not close it.
     */
    bus?: McpBus;
    /** `redis://…` URL: use Redis (needs the `ioredis` package), shared by all instances. Config: `mocapi.store.redis-url`. */
    redisUrl?: string;
    /** Prefix of every Redis key. Config: `mocapi.store.key-prefix`. Default `nest-mcp:`. */
    keyPrefix?: string;
    /**
     * Most live records the store holds (in Redis: of the kinds below and records written without
     * one). A live record is never dropped: a full store refuses new ones (-31503, HTTP 503,
     * Retry-After). Config: `mocapi.store.max-entries`. Default 100000.
     */
    maxEntries?: number;
    /** Most live requestState claims (spent tokens). Config: `mocapi.store.max-claims`. Default half of `maxEntries`. */
    maxClaims?: number;
    /** Most live task records. Config: `mocapi.store.max-tasks`. Default a quarter of `maxEntries`. */
    maxTasks?: number;
    /** Most live marks of 2025 sessions ended by DELETE. Config: `mocapi.store.max-session-ends`. Default a fifth of `maxEntries`. */
    maxSessionEnds?: number;
    /**
     * The share of each budget above (claims, tasks, session ends) one client may hold: the token's
     * principal with auth, else the client's address (IPv6 by /64). Past it that client gets -31429
     * (HTTP 429, Retry-After) and every other client keeps working. A fraction, more than 0, at most 1.
     * Config: `mocapi.store.client-share`. Default 0.02 (claims: 1000 of 50000).
     */
    clientShare?: number;
    /**
     * Behind a reverse proxy: the header the proxy sets to the client's address (e.g. `x-real-ip` with
     * nginx's `proxy_set_header X-Real-IP $remote_addr`), which then names the client instead of the
     * connection's address (the proxy's: all clients would share one share). Set it only when the
     * proxy overwrites that header: clients can send any value. Config: `mocapi.store.client-ip-header`.
     * Default: the connection's address.
     */
    clientIpHeader?: string;
    /**
     * Refuse to start when Redis's `maxmemory-policy` is not `noeviction` (or cannot be read), instead
     * of logging a warning. Config: `mocapi.store.redis-require-noeviction`. Default false.
     */
    redisRequireNoeviction?: boolean;
  };
  /** Limits on what a request may carry; each rejection is a JSON-RPC error and the server keeps serving. */
  limits?: {
    /** Largest request body, in bytes (413 beyond). Config: `mocapi.limits.max-body-bytes`. Default 1 MiB. */
    maxBodyBytes?: number;
    /** Deepest nesting of the JSON body (400 beyond). Config: `mocapi.limits.max-json-depth`. Default 64. */
    maxJsonDepth?: number;
    /**
     * Longest a tool, prompt or resource handler may run, as an ISO-8601 duration; the call then gets
     * an error and its AbortSignal fires. Config: `mocapi.limits.call-timeout`. Default: none.
     */
    callTimeout?: string;
    /** How long shutdown waits for in-flight calls (ISO-8601). Config: `mocapi.limits.shutdown-timeout`. Default `PT10S`. */
    shutdownTimeout?: string;
    /**
     * Longest a client may take to send a whole request (headers and body; ISO-8601), then 408 and
     * the socket closes. Sets Node's `server.requestTimeout`, so it applies to every route of the
     * HTTP server. Config: `mocapi.limits.request-timeout`. Default `PT30S`.
     */
    requestTimeout?: string;
    /** Longest a client may take to send the request headers (ISO-8601); Node's `server.headersTimeout`, server-wide. Config: `mocapi.limits.headers-timeout`. Default `PT10S`. */
    headersTimeout?: string;
    /**
     * Longest a client may take to send a POST body to the MCP endpoint, from the end of its headers
     * (ISO-8601): then 408 with a JSON-RPC error (-32600) and the connection closes. The endpoint's own
     * timer; at most `requestTimeout`. Config: `mocapi.limits.body-timeout`. Default `PT10S`.
     */
    bodyTimeout?: string;
  };
  /** Caching hints (SEP-2549) on list and read results. */
  cache?: {
    /** Config: `mocapi.cache.ttl-ms`. Default 0. */
    ttlMs?: number;
    /** Config: `mocapi.cache.scope`. Default `private`. */
    cacheScope?: CacheScope;
  };
  /**
   * Bearer-token authorization (the endpoint becomes an OAuth 2.1 resource server): every POST needs
   * a token the verifier accepts; the RFC 9728 metadata is served under `/.well-known/oauth-protected-resource`.
   * Config: `mocapi.auth.*` (`resource`, `issuer`, `introspection-endpoint`, …) builds it with a ready
   * verifier when absent, and fills the ready verifier when it names none.
   */
  auth?: McpAuthOptions;
  /** OpenTelemetry (`@opentelemetry/api`): spans and metrics per MCP request; a no-op until an SDK is registered. */
  telemetry?: McpTelemetryOptions;
}

/**
 * The Server Card's own fields (`McpModuleOptions.serverCard`); the rest of the card comes from the
 * module: `name`, `version` and `title` of `serverInfo`, the endpoint, the protocol versions it serves,
 * and whether it needs a bearer token.
 * @publicApi
 */
export interface McpServerCardOptions {
  /**
   * Serve the card. Config: `mocapi.server-card.enabled` (`true`/`false`). Default: on once it has a
   * description and a reverse-DNS name; `true` makes a missing one stop start-up.
   */
  enabled?: boolean;
  /**
   * The reverse-DNS namespace of the card's name, which is `<namespace>/<name>` (`com.example` and the
   * server name `weather` make `com.example/weather`). Not needed when the server's `name` is already
   * of that form. Config: `mocapi.server-card.namespace`.
   */
  namespace?: string;
  /** What the server does, for people choosing one (1 to 100 characters). Config: `mocapi.server-card.description`. */
  description?: string;
  /**
   * The endpoint's public URL (`https://mcp.example.com/mcp`), as clients reach it through proxies and
   * prefixes. Config: `mocapi.server-card.url`. Default: `auth.resourceMetadata.resource` with auth,
   * else the scheme and `Host` of each request with the endpoint path.
   */
  url?: string;
  /** The server's home page or documentation. Config: `mocapi.server-card.website-url`. */
  websiteUrl?: string;
  /** Icons for a client's list of servers. */
  icons?: Icon[];
  /** Where the server's source is (`{ url: 'https://github.com/acme/weather', source: 'github' }`). */
  repository?: { url: string; source: string; subfolder?: string; id?: string };
  /**
   * Also serve an AI Catalog at `/.well-known/ai-catalog.json` listing this card. The catalog speaks for
   * the whole site (host), so it is opt-in: turn it on where this application owns the host's root.
   * With several endpoints in one application it lists each endpoint whose card turns it on.
   * Config: `mocapi.server-card.ai-catalog`. Default false.
   */
  aiCatalog?: boolean;
}

/** @publicApi */
export interface McpTelemetryOptions {
  /** Default true. false: no spans, no metrics. */
  enabled?: boolean;
  /** Default: the global tracer provider (`trace.setGlobalTracerProvider`, what SDKs register). */
  tracerProvider?: TracerProvider;
  /** Default: the global meter provider. */
  meterProvider?: MeterProvider;
}

/**
 * A class that builds the options, for `forRootAsync({ useClass })`.
 * @publicApi
 */
export interface McpOptionsFactory {
  createMcpOptions(): McpModuleOptions | Promise<McpModuleOptions>;
}
