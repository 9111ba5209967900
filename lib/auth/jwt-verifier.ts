import { Logger } from '@nestjs/common';
import { logSafe } from '../protocol/log-text.js';
import { loadJose, type JoseModule } from './jose-loader.js';
import { AUTHORIZATION_SERVER_TIMEOUT_MS, discoverJwksUri } from './issuer-metadata.js';
import { InvalidTokenError } from './mcp-auth.errors.js';
import type { McpAuthInfo, McpJwtVerifierOptions, McpTokenVerifier } from './mcp-auth.interfaces.js';
import { audienceList, authInfoFromClaims } from './token-claims.js';

/** Asymmetric algorithms only: a JWKS published for everyone to read cannot hold an HMAC secret, and `none` signs nothing. */
export const DEFAULT_JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

type KeySet = { jose: JoseModule; keys: ReturnType<JoseModule['createRemoteJWKSet']> };

// jose's error codes that mean "this token is bad" (anything else is the key set or the network failing).
const REFUSALS: Record<string, string> = {
  ERR_JWT_EXPIRED: 'The access token has expired',
  ERR_JWKS_NO_MATCHING_KEY: 'The access token is signed with an unknown key',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'The access token is signed with an unknown key',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'The access token signature is invalid',
  ERR_JOSE_ALG_NOT_ALLOWED: 'The access token is signed with an algorithm that is not allowed',
  ERR_JOSE_NOT_SUPPORTED: 'The access token is signed with an algorithm that is not allowed',
  ERR_JWS_INVALID: 'The access token is not a valid JWT',
  ERR_JWT_INVALID: 'The access token is not a valid JWT',
};
const CLAIM_REFUSALS: Record<string, string> = {
  aud: 'The access token was not issued for this resource',
  iss: 'The access token was issued by another issuer',
  nbf: 'The access token is not valid yet',
  typ: 'The access token is not of the expected type',
};

/**
 * Verifies JWT access tokens: the signature with a key from the issuer's JWKS (fetched once, cached,
 * refetched when a token names a key it does not hold: key rotation needs no restart), the algorithm
 * against an allow-list, `iss`, `aud` (RFC 8707, required) and the time claims with a small tolerance.
 * Needs the optional package `jose`. Used by `McpModule.forRoot({ auth: { jwt } })`, or given as `verifier`.
 *
 * @example
 * new McpJwtVerifier({ issuer: 'https://auth.example.com/', audience: 'https://api.example.com/mcp' })
 * @publicApi
 */
export class McpJwtVerifier implements McpTokenVerifier {
  private readonly logger = new Logger('McpModule');
  private readonly issuer: string;
  private readonly audience: string[];
  private readonly algorithms: string[];
  private readonly clockToleranceSeconds: number;
  private readonly cacheMaxAgeMs: number;
  private readonly cooldownMs: number;
  private keySet?: Promise<KeySet>;

  constructor(private readonly options: McpJwtVerifierOptions) {
    const owner = 'McpJwtVerifier';
    if (typeof options?.issuer !== 'string' || !URL.canParse(options.issuer)) throw new Error(`${owner}: issuer must be the authorization server's issuer URL`);
    if (options.jwksUri !== undefined && !URL.canParse(options.jwksUri)) throw new Error(`${owner}: jwksUri must be a URL; got "${options.jwksUri}"`);
    this.issuer = options.issuer;
    this.audience = audienceList(options.audience, owner);
    this.algorithms = options.algorithms ?? DEFAULT_JWT_ALGORITHMS;
    const unsafe = this.algorithms.filter((alg) => alg.toLowerCase() === 'none' || /^HS/i.test(alg));
    if (this.algorithms.length === 0 || unsafe.length > 0) {
      throw new Error(`${owner}: algorithms must list asymmetric algorithms (e.g. RS256, ES256); refused: ${unsafe.join(', ') || 'an empty list'}`);
    }
    this.clockToleranceSeconds = seconds(owner, 'clockToleranceSeconds', options.clockToleranceSeconds ?? 5);
    this.cacheMaxAgeMs = seconds(owner, 'jwksCacheMaxAgeSeconds', options.jwksCacheMaxAgeSeconds ?? 600) * 1000;
    this.cooldownMs = seconds(owner, 'jwksCooldownSeconds', options.jwksCooldownSeconds ?? 30) * 1000;
  }

  async verify(token: string): Promise<McpAuthInfo> {
    const { jose, keys } = await this.keys();
    try {
      const { payload } = await jose.jwtVerify(token, keys, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: this.algorithms,
        clockTolerance: this.clockToleranceSeconds,
        ...(this.options.typ && { typ: this.options.typ }),
      });
      return authInfoFromClaims(token, payload as Record<string, unknown>);
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const refusal = code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' ? claimRefusal((error as { claim?: string }).claim) : REFUSALS[String(code)];
      if (refusal) throw new InvalidTokenError(refusal);
      // The key set could not be fetched or read: every token fails until it can, so say so.
      this.logger.warn(`McpJwtVerifier: the keys of ${this.issuer} are not available: ${logSafe(error instanceof Error ? error.message : String(error))}`);
      throw error;
    }
  }

  /** jose and the remote key set, made on first use (a failure to find the JWKS is retried by the next token). */
  private keys(): Promise<KeySet> {
    this.keySet ??= this.loadKeys().catch((error: unknown) => {
      this.keySet = undefined;
      this.logger.warn(`McpJwtVerifier: cannot find the keys of ${this.issuer}: ${logSafe(error instanceof Error ? error.message : String(error))}`);
      throw error;
    });
    return this.keySet;
  }

  private async loadKeys(): Promise<KeySet> {
    const jose = await loadJose();
    const uri = this.options.jwksUri ?? (await discoverJwksUri(this.issuer));
    const keys = jose.createRemoteJWKSet(new URL(uri), {
      cacheMaxAge: this.cacheMaxAgeMs,
      cooldownDuration: this.cooldownMs,
      timeoutDuration: AUTHORIZATION_SERVER_TIMEOUT_MS,
    });
    return { jose, keys };
  }
}

function claimRefusal(claim: string | undefined): string {
  return (claim && CLAIM_REFUSALS[claim]) ?? `The access token's ${claim ?? 'claims'} claim is invalid`;
}

function seconds(owner: string, key: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`${owner}: ${key} must be a number of seconds, 0 or more; got ${value}`);
  return value;
}
