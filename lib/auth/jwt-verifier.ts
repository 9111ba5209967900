import { loadJose, type JoseModule } from './jose-loader.js';
import { authorizationServerTimeoutMs, discoverJwksUri, failureReason } from './issuer-metadata.js';
import { AuthorizationServerUnavailableError, InvalidTokenError } from './mcp-auth.errors.js';
import type { McpAuthInfo, McpJwtVerifierOptions, McpTokenVerifier } from './mcp-auth.interfaces.js';
import { audienceList, authInfoFromClaims, DEFAULT_CLOCK_TOLERANCE_SECONDS, secondsOption } from './token-claims.js';

/** Asymmetric algorithms only: a JWKS published for everyone to read cannot hold an HMAC secret, and `none` signs nothing. */
export const DEFAULT_JWT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];

type KeySet = ReturnType<JoseModule['createRemoteJWKSet']>;
type KeyLookup = Parameters<KeySet>;

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
// What the key set throws about the token (its key id or algorithm); anything else is the key set failing to arrive.
const KEY_REFUSALS = new Set(['ERR_JWKS_NO_MATCHING_KEY', 'ERR_JWKS_MULTIPLE_MATCHING_KEYS', 'ERR_JOSE_NOT_SUPPORTED']);
const CLAIM_REFUSALS: Record<string, string> = {
  aud: 'The access token was not issued for this resource',
  iss: 'The access token was issued by another issuer',
  nbf: 'The access token is not valid yet',
  typ: 'The access token is not of the expected type',
};
const NO_EXPIRY = 'The access token has no expiry time (exp)';

/**
 * Verifies JWT access tokens: the signature with a key from the issuer's JWKS (fetched once, cached,
 * refetched when a token names a key it does not hold: key rotation needs no restart), the algorithm
 * against an allow-list, `iss`, `aud` (RFC 8707, required), `exp` (required by RFC 9068 unless
 * `allowTokensWithoutExp`) and the time claims with a small tolerance. Keys that cannot be fetched or
 * read (the issuer down, slow, failing) throw `AuthorizationServerUnavailableError`: 503, not 401.
 * Needs the optional package `jose`. Used by `McpModule.forRoot({ auth: { jwt } })`, or given as `verifier`.
 *
 * @example
 * new McpJwtVerifier({ issuer: 'https://auth.example.com/', audience: 'https://api.example.com/mcp' })
 * @publicApi
 */
export class McpJwtVerifier implements McpTokenVerifier {
  private readonly issuer: string;
  private readonly audience: string[];
  private readonly algorithms: string[];
  private readonly clockToleranceSeconds: number;
  private readonly cacheMaxAgeMs: number;
  private readonly cooldownMs: number;
  private readonly timeoutMs: number;
  private readonly requiredClaims: string[];
  private readonly keySource: string;
  private jose?: Promise<JoseModule>;
  private keySet?: Promise<KeySet>;
  private readonly keyLookup = (...lookup: KeyLookup) => this.keyFor(...lookup);

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
    this.clockToleranceSeconds = secondsOption(owner, 'clockToleranceSeconds', options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS);
    this.cacheMaxAgeMs = secondsOption(owner, 'jwksCacheMaxAgeSeconds', options.jwksCacheMaxAgeSeconds ?? 600) * 1000;
    this.cooldownMs = secondsOption(owner, 'jwksCooldownSeconds', options.jwksCooldownSeconds ?? 30) * 1000;
    this.timeoutMs = authorizationServerTimeoutMs(owner, options.timeoutSeconds);
    this.requiredClaims = options.allowTokensWithoutExp === true ? [] : ['exp'];
    this.keySource = `McpJwtVerifier: the key set of ${options.issuer}${options.jwksUri ? ` at ${options.jwksUri}` : ''}`;
  }

  async verify(token: string): Promise<McpAuthInfo> {
    const jose = await (this.jose ??= loadJose());
    try {
      const { payload } = await jose.jwtVerify(token, this.keyLookup, {
        issuer: this.issuer,
        audience: this.audience,
        algorithms: this.algorithms,
        clockTolerance: this.clockToleranceSeconds,
        requiredClaims: this.requiredClaims,
        ...(this.options.typ && { typ: this.options.typ }),
      });
      return authInfoFromClaims(token, payload as Record<string, unknown>);
    } catch (error) {
      if (error instanceof AuthorizationServerUnavailableError) throw error;
      const { code, claim, reason } = error as { code?: unknown; claim?: string; reason?: string };
      const refusal = code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' ? claimRefusal(claim, reason) : REFUSALS[String(code)];
      if (refusal) throw new InvalidTokenError(refusal);
      throw error;
    }
  }

  /**
   * The key a well-formed token names. Asked only once the token parsed, so a malformed token is refused
   * 401 even while the keys are out of reach; keys that cannot be fetched or read are the issuer's trouble.
   */
  private async keyFor(...lookup: KeyLookup): ReturnType<KeySet> {
    const keys = await this.keys();
    try {
      return await keys(...lookup);
    } catch (error) {
      if (KEY_REFUSALS.has(String((error as { code?: unknown }).code))) throw error;
      throw new AuthorizationServerUnavailableError(this.keySource, failureReason(error, this.timeoutMs));
    }
  }

  /** The remote key set, made on first use (a failure to find the JWKS is retried by the next token). */
  private keys(): Promise<KeySet> {
    this.keySet ??= this.loadKeys().catch((error: unknown) => {
      this.keySet = undefined;
      throw new AuthorizationServerUnavailableError(this.keySource, failureReason(error, this.timeoutMs));
    });
    return this.keySet;
  }

  private async loadKeys(): Promise<KeySet> {
    const jose = await (this.jose ??= loadJose());
    const uri = this.options.jwksUri ?? (await discoverJwksUri(this.issuer, this.timeoutMs));
    return jose.createRemoteJWKSet(new URL(uri), {
      cacheMaxAge: this.cacheMaxAgeMs,
      cooldownDuration: this.cooldownMs,
      timeoutDuration: this.timeoutMs,
    });
  }
}

function claimRefusal(claim: string | undefined, reason: string | undefined): string {
  if (claim === 'exp' && reason === 'missing') return NO_EXPIRY;
  return (claim && CLAIM_REFUSALS[claim]) ?? `The access token's ${claim ?? 'claims'} claim is invalid`;
}
