import { createHash } from 'node:crypto';
import { isPlainObject } from '../protocol/json-value.js';
import { authorizationServerTimeoutMs, failureReason } from './issuer-metadata.js';
import { AuthorizationServerUnavailableError, InvalidTokenError } from './mcp-auth.errors.js';
import type { McpAuthInfo, McpIntrospectionVerifierOptions, McpTokenVerifier } from './mcp-auth.interfaces.js';
import { audienceList, authInfoFromClaims, DEFAULT_CLOCK_TOLERANCE_SECONDS, requireAudience, secondsOption, timeClaimRefusal } from './token-claims.js';

/** An answer kept for a while: the caller, or why the token is refused. */
type Answer = { auth: McpAuthInfo } | { refusal: string };

/**
 * Verifies opaque access tokens by asking the authorization server (OAuth 2.0 Token Introspection,
 * RFC 7662) with this resource server's client credentials. An active token must name this resource in
 * `aud` (RFC 8707), and its `exp` and `nbf`, if given, must hold with the clock tolerance. Answers, active or not,
 * are reused for `cacheTtlSeconds` (never past the token's `exp`), and concurrent requests with one token share
 * one introspection. An endpoint that cannot be reached, does not answer in time, fails (any status but 2xx)
 * or answers what is not an introspection response throws `AuthorizationServerUnavailableError` (503, not
 * 401), and nothing is cached: the next request asks again.
 *
 * @example
 * new McpIntrospectionVerifier({ endpoint: 'https://auth.example.com/introspect', clientId: 'mcp-api',
 *   clientSecret: process.env.INTROSPECTION_SECRET!, audience: 'https://api.example.com/mcp' })
 * @publicApi
 */
export class McpIntrospectionVerifier implements McpTokenVerifier {
  private readonly audience: string[];
  private readonly cacheTtlMs: number;
  private readonly cacheSize: number;
  private readonly credentials: string;
  private readonly clockToleranceSeconds: number;
  private readonly timeoutMs: number;
  private readonly source: string;
  /** Keyed by the token's SHA-256, so the cache holds no token. */
  private readonly cache = new Map<string, { until: number; answer: Answer }>();
  private readonly pending = new Map<string, Promise<Answer>>();

  constructor(private readonly options: McpIntrospectionVerifierOptions) {
    const owner = 'McpIntrospectionVerifier';
    if (typeof options?.endpoint !== 'string' || !URL.canParse(options.endpoint)) throw new Error(`${owner}: endpoint must be the introspection endpoint's URL`);
    if (!options.clientId || !options.clientSecret) throw new Error(`${owner}: clientId and clientSecret (this resource server's credentials) are required`);
    this.audience = audienceList(options.audience, owner);
    this.cacheTtlMs = secondsOption(owner, 'cacheTtlSeconds', options.cacheTtlSeconds ?? 30) * 1000;
    this.cacheSize = options.cacheSize ?? 10_000;
    if (!Number.isInteger(this.cacheSize) || this.cacheSize < 1) throw new Error(`${owner}: cacheSize must be a positive integer; got ${options.cacheSize}`);
    this.clockToleranceSeconds = secondsOption(owner, 'clockToleranceSeconds', options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS);
    this.timeoutMs = authorizationServerTimeoutMs(owner, options.timeoutSeconds);
    this.source = `${owner}: ${options.endpoint}`;
    // RFC 6749 §2.3.1: each part form-encoded before Basic.
    this.credentials = Buffer.from(`${formEncode(options.clientId)}:${formEncode(options.clientSecret)}`).toString('base64');
  }

  async verify(token: string): Promise<McpAuthInfo> {
    const key = createHash('sha256').update(token).digest('base64url');
    const now = Date.now();
    const cached = this.cache.get(key);
    let answer: Answer;
    if (cached && cached.until > now) {
      answer = cached.answer;
    } else {
      let asking = this.pending.get(key);
      if (!asking) {
        asking = this.introspect(token, key).finally(() => this.pending.delete(key));
        this.pending.set(key, asking);
      }
      answer = await asking;
    }
    if ('refusal' in answer) throw new InvalidTokenError(answer.refusal);
    // Judged at each use, so a cached answer turns valid at its nbf and expires at its exp.
    const late = timeClaimRefusal(answer.auth.claims, this.clockToleranceSeconds);
    if (late) throw new InvalidTokenError(late);
    return { ...answer.auth, token };
  }

  private async introspect(token: string, key: string): Promise<Answer> {
    const claims = await this.ask(token);
    const answer = this.judge(token, claims);
    const expiresAt = 'auth' in answer && answer.auth.expiresAt !== undefined ? answer.auth.expiresAt * 1000 : Infinity;
    this.remember(key, answer, Math.min(Date.now() + this.cacheTtlMs, expiresAt));
    return answer;
  }

  /** The endpoint's answer about `token`; whatever keeps it from giving one is not the token's fault. */
  private async ask(token: string): Promise<Record<string, unknown>> {
    const answer = await this.post(token).catch((error: unknown) => {
      throw new AuthorizationServerUnavailableError(this.source, failureReason(error, this.timeoutMs));
    });
    // RFC 7662 §2.2: an object whose `active` is a boolean; anything else says nothing about the token.
    if (!isPlainObject(answer) || typeof answer.active !== 'boolean') {
      throw new AuthorizationServerUnavailableError(this.source, 'an answer that is not an introspection response (no boolean "active")');
    }
    return answer;
  }

  private async post(token: string): Promise<unknown> {
    const response = await fetch(this.options.endpoint, {
      method: 'POST',
      headers: { authorization: `Basic ${this.credentials}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`HTTP ${response.status}`);
    }
    return response.json();
  }

  private judge(token: string, claims: Record<string, unknown>): Answer {
    if (claims.active !== true) return { refusal: 'The access token is not active' };
    try {
      requireAudience(claims.aud, this.audience);
    } catch (error) {
      return { refusal: (error as InvalidTokenError).description };
    }
    if (this.options.issuer !== undefined && claims.iss !== this.options.issuer) return { refusal: 'The access token was issued by another issuer' };
    return { auth: authInfoFromClaims(token, claims) };
  }

  private remember(key: string, answer: Answer, until: number): void {
    if (until <= Date.now()) return;
    this.cache.delete(key);
    this.cache.set(key, { until, answer: 'auth' in answer ? { auth: { ...answer.auth, token: '' } } : answer });
    // Oldest first: a Map iterates in insertion order.
    for (const oldest of this.cache.keys()) {
      if (this.cache.size <= this.cacheSize) break;
      this.cache.delete(oldest);
    }
  }
}

function formEncode(value: string): string {
  return new URLSearchParams({ v: value }).toString().slice(2);
}
