import { describe, expect, it } from '@jest/globals';
import { resolveMcpSettings } from './mcp-settings.js';
import { McpConfigurationError } from './setting-sources.js';

const config = (values: Record<string, unknown>) => ({ get: (key: string) => values[key] });

describe('resolveMcpSettings', () => {
  it('falls back to the defaults', () => {
    const settings = resolveMcpSettings();
    expect(settings).toMatchObject({
      serverInfo: { name: 'nest-mcp-server', version: '0.0.0' },
      endpoint: '/mcp',
      pageSize: 100,
      allowedOrigins: undefined,
      allowedHosts: undefined,
      mrtr: { secret: undefined, ttlMs: 300_000, ttl: 'PT5M' },
      cache: { ttlMs: 0, cacheScope: 'private' },
      tasks: { ttlMs: 3_600_000, pollIntervalMs: 1_000, leaseMs: 15_000 },
    });
  });

  it('reads the task settings, and refuses a zero duration for them', () => {
    const settings = resolveMcpSettings({ tasks: { lease: 'PT3S' } }, config({ MOCAPI_TASKS_TTL: 'PT10M', 'mocapi.tasks.poll-interval': 'PT0.5S' }));
    expect(settings.tasks).toEqual({ ttlMs: 600_000, pollIntervalMs: 500, leaseMs: 3_000, maxPerClient: 100 });
    expect(() => resolveMcpSettings({ tasks: { ttl: 'PT0S' } })).toThrow('McpModule option tasks.ttl must be longer than zero');
  });

  it('serves the playground unless NODE_ENV is production; the option or mocapi.playground forces it', () => {
    expect(resolveMcpSettings({}, config({ NODE_ENV: 'development' })).playground).toBe(true);
    expect(resolveMcpSettings({}, config({ NODE_ENV: 'production' })).playground).toBe(false);
    expect(resolveMcpSettings({}, config({ NODE_ENV: 'production', MOCAPI_PLAYGROUND: 'true' })).playground).toBe(true);
    expect(resolveMcpSettings({ playground: true }, config({ NODE_ENV: 'production' })).playground).toBe(true);
    expect(resolveMcpSettings({ playground: false }, config({ NODE_ENV: 'development', 'mocapi.playground': 'true' })).playground).toBe(false);
    expect(() => resolveMcpSettings({}, config({ MOCAPI_PLAYGROUND: 'yes' }))).toThrow('MOCAPI_PLAYGROUND must be "true" or "false"');
  });

  it('reads mocapi.* keys as written and in their environment form', () => {
    const settings = resolveMcpSettings({}, config({ 'mocapi.endpoint': 'rpc', MOCAPI_MRTR_TTL: 'PT2M', MOCAPI_PAGE_SIZE: '5', 'mocapi.allowed-origins': 'https://a, https://b' }));
    expect(settings.endpoint).toBe('/rpc');
    expect(settings.mrtr.ttlMs).toBe(120_000);
    expect(settings.pageSize).toBe(5);
    expect(settings.allowedOrigins).toEqual(['https://a', 'https://b']);
  });

  it('lets explicit options win over config', () => {
    const settings = resolveMcpSettings({ endpoint: '/explicit', mrtr: { ttl: 'PT1M' } }, config({ 'mocapi.endpoint': '/config', 'mocapi.mrtr.ttl': 'PT9M' }));
    expect(settings.endpoint).toBe('/explicit');
    expect(settings.mrtr.ttlMs).toBe(60_000);
  });

  it('sets the HTTP server timeouts: 30 s for a request, 10 s for its headers, configurable', () => {
    expect(resolveMcpSettings().limits).toMatchObject({ requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 });
    const configured = resolveMcpSettings({}, config({ MOCAPI_LIMITS_REQUEST_TIMEOUT: 'PT1M', 'mocapi.limits.headers-timeout': 'PT5S' }));
    expect(configured.limits).toMatchObject({ requestTimeoutMs: 60_000, headersTimeoutMs: 5_000 });
    expect(() => resolveMcpSettings({ limits: { requestTimeout: 'PT5S', headersTimeout: 'PT6S' } })).toThrow('McpModule option limits.headersTimeout must not be longer than McpModule option limits.requestTimeout');
  });

  it('bounds how long the endpoint waits for a POST body: 10 s by default, configurable, never past the request timeout', () => {
    expect(resolveMcpSettings().limits.bodyTimeoutMs).toBe(10_000);
    expect(resolveMcpSettings({}, config({ MOCAPI_LIMITS_BODY_TIMEOUT: 'PT2.5S' })).limits.bodyTimeoutMs).toBe(2_500);
    expect(resolveMcpSettings({ limits: { bodyTimeout: 'PT20S' } }, config({ 'mocapi.limits.body-timeout': 'PT1S' })).limits.bodyTimeoutMs).toBe(20_000);
    expect(() => resolveMcpSettings({ limits: { bodyTimeout: 'PT0S' } })).toThrow('McpModule option limits.bodyTimeout must be longer than zero');
    expect(() => resolveMcpSettings({ limits: { bodyTimeout: 'PT31S' } })).toThrow('McpModule option limits.bodyTimeout must not be longer than mocapi.limits.request-timeout');
  });

  it('serves both eras by default, with 24-hour 2025 sessions; mocapi.protocol and mocapi.session.ttl configure them', () => {
    expect(resolveMcpSettings()).toMatchObject({ protocol: 'dual', session: { ttl: 'PT24H', ttlMs: 86_400_000 } });
    const configured = resolveMcpSettings({}, config({ MOCAPI_PROTOCOL: 'modern', 'mocapi.session.ttl': 'PT1H' }));
    expect(configured).toMatchObject({ protocol: 'modern', session: { ttlMs: 3_600_000 } });
    expect(resolveMcpSettings({ protocol: 'legacy' }, config({ MOCAPI_PROTOCOL: 'modern' })).protocol).toBe('legacy');
    expect(() => resolveMcpSettings({}, config({ 'mocapi.protocol': 'both' }))).toThrow('mocapi.protocol must be one of "dual", "modern", "legacy"; got "both"');
    expect(() => resolveMcpSettings({ session: { ttl: 'soon' } })).toThrow('McpModule option session.ttl: Invalid ISO-8601 duration');
  });

  it('waits for a 2025 client answer up to mrtr.ttl by default; mocapi.session.input-timeout shortens it, never past mrtr.ttl', () => {
    expect(resolveMcpSettings().session.inputTimeoutMs).toBe(300_000);
    expect(resolveMcpSettings({}, config({ MOCAPI_SESSION_INPUT_TIMEOUT: 'PT30S' })).session.inputTimeoutMs).toBe(30_000);
    expect(resolveMcpSettings({ session: { inputTimeout: 'PT1M' }, mrtr: { ttl: 'PT2M' } }).session.inputTimeoutMs).toBe(60_000);
    expect(() => resolveMcpSettings({ session: { inputTimeout: 'PT10M' } })).toThrow('McpModule option session.inputTimeout (PT10M) must not exceed mocapi.mrtr.ttl');
    expect(() => resolveMcpSettings({ session: { inputTimeout: 'PT0S' } })).toThrow('McpModule option session.inputTimeout must be longer than zero');
  });

  it('fails clearly on bad values', () => {
    expect(() => resolveMcpSettings({ mrtr: { ttl: 'five minutes' } })).toThrow(/^McpModule option mrtr\.ttl: Invalid ISO-8601 duration/);
    expect(() => resolveMcpSettings({ pageSize: 0 })).toThrow(/McpModule option pageSize/);
    expect(() => resolveMcpSettings({}, config({ 'mocapi.cache.scope': 'shared' }))).toThrow(/mocapi\.cache\.scope/);
  });

  it('reads the previous sealing keys from the options or as a comma-separated list, keeping empty entries for the start-up check to name', () => {
    expect(resolveMcpSettings().mrtr.previousSecrets).toBeUndefined();
    expect(resolveMcpSettings({}, config({ MOCAPI_MRTR_PREVIOUS_SECRETS: ' ' })).mrtr.previousSecrets).toBeUndefined();
    expect(resolveMcpSettings({}, config({ 'mocapi.mrtr.previous-secrets': 'a=, b ,,c' })).mrtr.previousSecrets).toEqual(['a=', 'b', '', 'c']);
    expect(resolveMcpSettings({}, config({ MOCAPI_MRTR_PREVIOUS_SECRETS: 'x' })).mrtr).toMatchObject({ previousSecrets: ['x'] });
    expect(resolveMcpSettings({ mrtr: { previousSecrets: ['o'] } }, config({ MOCAPI_MRTR_PREVIOUS_SECRETS: 'x' })).mrtr.previousSecrets).toEqual(['o']);
    expect(resolveMcpSettings({ mrtr: { previousSecrets: [] } }).mrtr.previousSecrets).toEqual([]);
  });

  it('reads the store and the first-round switch, with their defaults', () => {
    expect(resolveMcpSettings().store).toEqual({
      instance: undefined,
      redisUrl: undefined,
      keyPrefix: 'nest-mcp:',
      maxEntries: 100_000,
      budgets: { claim: 50_000, task: 25_000, 'session-end': 20_000 },
      shares: { perClient: { claim: 1_000, task: 500, 'session-end': 400 }, clientIpHeader: undefined },
      redisRequireNoeviction: false,
      bus: undefined,
    });
    expect(resolveMcpSettings().mrtr.acceptFirstRoundWithoutState).toBe(false);
    const settings = resolveMcpSettings(
      {},
      config({ MOCAPI_STORE_REDIS_URL: 'redis://r:6379', 'mocapi.store.key-prefix': 'app:', 'mocapi.store.max-entries': '50', MOCAPI_MRTR_ACCEPT_FIRST_ROUND_WITHOUT_STATE: 'true' }),
    );
    expect(settings.store).toMatchObject({ redisUrl: 'redis://r:6379', keyPrefix: 'app:', maxEntries: 50 });
    expect(settings.mrtr.acceptFirstRoundWithoutState).toBe(true);
    expect(() => resolveMcpSettings({}, config({ 'mocapi.mrtr.accept-first-round-without-state': 'yes' }))).toThrow(/accept-first-round-without-state/);
    expect(() => resolveMcpSettings({ store: { maxEntries: 0 } })).toThrow(/McpModule option store\.maxEntries must be a positive integer/);
  });

  it('splits max-entries into the budgets of the record kinds, unless they are set; they must fit in it', () => {
    expect(resolveMcpSettings({}, config({ MOCAPI_STORE_MAX_ENTRIES: '300' })).store.budgets).toEqual({ claim: 150, task: 75, 'session-end': 60 });
    const set = resolveMcpSettings(
      { store: { maxTasks: 40 } },
      config({ 'mocapi.store.max-entries': '300', MOCAPI_STORE_MAX_CLAIMS: '200', 'mocapi.store.max-session-ends': '10', MOCAPI_STORE_REDIS_REQUIRE_NOEVICTION: 'true' }),
    );
    expect(set.store).toMatchObject({ maxEntries: 300, budgets: { claim: 200, task: 40, 'session-end': 10 }, redisRequireNoeviction: true });
    expect(() => resolveMcpSettings({ store: { maxEntries: 100, maxClaims: 90 } })).toThrow(
      'McpModule option store.maxClaims + max-tasks + max-session-ends (90 + 25 + 20 = 135) must not exceed McpModule option store.maxEntries (100)',
    );
    expect(() => resolveMcpSettings({}, config({ 'mocapi.store.max-tasks': '0' }))).toThrow('mocapi.store.max-tasks must be a positive integer; got "0"');
    expect(() => resolveMcpSettings({}, config({ 'mocapi.store.max-session-ends': 'many' }))).toThrow(/mocapi\.store\.max-session-ends/);
    expect(() => resolveMcpSettings({}, config({ 'mocapi.store.redis-require-noeviction': 'yes' }))).toThrow(/redis-require-noeviction/);
  });

  it("caps running tasks per client: 100, or the client's share of the tasks budget when smaller; never above the budget", () => {
    expect(resolveMcpSettings({ store: { maxEntries: 2_000 } }).tasks.maxPerClient).toBe(10);
    expect(resolveMcpSettings({}, config({ MOCAPI_TASKS_MAX_PER_CLIENT: '7' })).tasks.maxPerClient).toBe(7);
    expect(() => resolveMcpSettings({ store: { maxTasks: 10 }, tasks: { maxPerClient: 11 } })).toThrow(
      'McpModule option tasks.maxPerClient (11) must not exceed McpModule option store.maxTasks (10): one client could hold every task',
    );
    expect(() => resolveMcpSettings({ tasks: { maxPerClient: 1.5 } })).toThrow(/McpModule option tasks\.maxPerClient must be a positive integer/);
  });

  it('reads the client address header of a trusted proxy, as a header name (the store key, else its former tasks key)', () => {
    expect(resolveMcpSettings({}, config({ 'mocapi.store.client-ip-header': ' X-Real-IP ' })).store.shares.clientIpHeader).toBe('x-real-ip');
    expect(resolveMcpSettings({}, config({ 'mocapi.tasks.client-ip-header': 'X-Forwarded-For' })).store.shares.clientIpHeader).toBe('x-forwarded-for');
    expect(() => resolveMcpSettings({ store: { clientIpHeader: 'X Real IP' } })).toThrow('McpModule option store.clientIpHeader must be an HTTP header name; got "X Real IP"');
  });

  it("sizes each client's share of every budget", () => {
    const { shares } = resolveMcpSettings().store;
    expect(shares).toEqual({ perClient: { claim: 1_000, task: 500, 'session-end': 400 }, clientIpHeader: undefined });
    const small = resolveMcpSettings({}, config({ MOCAPI_STORE_MAX_ENTRIES: '1000', 'mocapi.store.client-share': '0.1' }));
    expect(small.store.shares.perClient).toEqual({ claim: 50, task: 25, 'session-end': 20 });
    // A client may keep as many tasks as it may run at once.
    expect(small.tasks.maxPerClient).toBe(25);
    expect(resolveMcpSettings({ store: { maxTasks: 100 } }).tasks.maxPerClient).toBe(2);
    expect(resolveMcpSettings({ store: { maxTasks: 100 }, tasks: { maxPerClient: 10 } }).store.shares.perClient.task).toBe(10);
    for (const bad of ['0', '1.5', 'half', ' ']) {
      expect(() => resolveMcpSettings({}, config({ MOCAPI_STORE_CLIENT_SHARE: bad }))).toThrow(/MOCAPI_STORE_CLIENT_SHARE must be a fraction more than 0 and at most 1/);
    }
  });
});

describe('start-up errors name the setting as the user set it, in one line', () => {
  const failure = (run: () => unknown): Error => {
    try {
      run();
    } catch (error) {
      return error as Error;
    }
    throw new Error('expected a start-up error');
  };

  it('the environment variable, the config key, or the McpModule option that held the bad value', () => {
    const fromEnv = failure(() => resolveMcpSettings({}, config({ MOCAPI_MRTR_TTL: 'banana' })));
    expect(fromEnv).toBeInstanceOf(McpConfigurationError);
    expect(fromEnv.message).toBe('MOCAPI_MRTR_TTL: Invalid ISO-8601 duration "banana": expected a form like PT5M, PT30S, PT0.5S, P1D or P1DT2H3M4.5S');
    expect(fromEnv.stack).toBe(`McpConfigurationError: ${fromEnv.message}`);
    expect(failure(() => resolveMcpSettings({}, config({ 'mocapi.mrtr.ttl': 'banana' }))).message).toMatch(/^mocapi\.mrtr\.ttl: /);
    expect(failure(() => resolveMcpSettings({ limits: { callTimeout: 'soon' } })).message).toMatch(/^McpModule option limits\.callTimeout: Invalid ISO-8601 duration "soon"/);
  });

  it('a rule between two settings names both as they were set', () => {
    const error = failure(() => resolveMcpSettings({ mrtr: { ttl: 'PT1M' } }, config({ MOCAPI_SESSION_INPUT_TIMEOUT: 'PT5M' })));
    expect(error.message).toContain('MOCAPI_SESSION_INPUT_TIMEOUT (PT5M) must not exceed McpModule option mrtr.ttl');
  });
});
