import { Logger } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { logSafe } from '../protocol/log-text.js';
import { AUTHORIZATION_SERVER_TIMEOUT_MS } from './issuer-metadata.js';
import { InvalidTokenError } from './mcp-auth.errors.js';
import type { McpAuthInfo, McpIntrospectionVerifierOptions, McpTokenVerifier } from './mcp-auth.interfaces.js';
import { audienceList, authInfoFromClaims, requireAudience } from './token-claims.js';

/** An answer kept for a while: the caller, or why the token is refused. */
type Answer = { auth: McpAuthInfo } | { refusal: string };

/**
 * Verifies opaque access tokens by asking the authorization server (OAuth 2.0 Token Introspection,
 * RFC 7662) with this resource server's client credentials. An active token must name this resource in
 * `aud` (RFC 8707). Answers, active or not, are reused for `cacheTtlSeconds` (never past the token's `exp`), and
 * concurrent requests with one token share one introspection.
 *
 * @example
 * new McpIntrospectionVerifier({ endpoint: 'https://auth.example.com/introspect', clientId: 'mcp-api',
 *   clientSecret: process.env.INTROSPECTION_SECRET!, audience: 'https://api.example.com/mcp' })
 * @publicApi
 */
export class McpIntrospectionVerifier implements McpTokenVerifier {
  private readonly logger = new Logger('McpModule');
  private readonly audience: string[];
  private readonly cacheTtlMs: number;
  private readonly cacheSize: number;
  private readonly credentials: string;
  /** Keyed by the token's SHA-256, so the cache holds no token. */
  private readonly cache = new Map<string, { until: number; answer: Answer }>();
  private readonly pending = new Map<string, Promise<Answer>>();

  constructor(private readonly options: McpIntrospectionVerifierOptions) {
    const owner = 'McpIntrospectionVerifier';
    if (typeof options?.endpoint !== 'string' || !URL.canParse(options.endpoint)) throw new Error(`${owner}: endpoint must be the introspection endpoint's URL`);
    if (!options.clientId || !options.clientSecret) throw new Error(`${owner}: clientId and clientSecret (this resource server's credentials) are required`);
    this.audience = audienceList(options.audience, owner);
    const ttl = options.cacheTtlSeconds ?? 30;
    if (typeof ttl !== 'number' || !Number.isFinite(ttl) || ttl < 0) throw new Error(`${owner}: cacheTtlSeconds must be a number of seconds, 0 or more; got ${ttl}`);
    this.cacheTtlMs = ttl * 1000;
    this.cacheSize = options.cacheSize ?? 10_000;
    if (!Number.isInteger(this.cacheSize) || this.cacheSize < 1) throw new Error(`${owner}: cacheSize must be a positive integer; got ${options.cacheSize}`);
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
    return { ...answer.auth, token };
  }

  private async introspect(token: string, key: string): Promise<Answer> {
    let claims: Record<string, unknown>;
    try {
      const response = await fetch(this.options.endpoint, {
        method: 'POST',
        headers: { authorization: `Basic ${this.credentials}`, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }),
        signal: AbortSignal.timeout(AUTHORIZATION_SERVER_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status}`);
      }
      claims = (await response.json()) as Record<string, unknown>;
    } catch (error) {
      // Not the token's fault, and not cached: the next request asks again.
      this.logger.warn(`McpIntrospectionVerifier: ${this.options.endpoint} did not answer: ${logSafe(error instanceof Error ? error.message : String(error))}`);
      throw error;
    }
    const answer = this.judge(token, claims);
    const expiresAt = 'auth' in answer && answer.auth.expiresAt !== undefined ? answer.auth.expiresAt * 1000 : Infinity;
    this.remember(key, answer, Math.min(Date.now() + this.cacheTtlMs, expiresAt));
    return answer;
  }

  private judge(token: string, claims: Record<string, unknown>): Answer {
    if (claims?.active !== true) return { refusal: 'The access token is not active' };
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
