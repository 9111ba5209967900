/**
 * The OAuth end-to-end tests' authorization server and their headless OAuth client: oidc-provider runs as
 * its own process on loopback (test/support/oidc-server.mjs), and the official clients' OAuth providers
 * get a login that needs nobody, since the server's login approves by itself and the redirects are
 * followed with fetch.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { JsonLines, within } from './waiting.js';

const SCRIPT = fileURLToPath(new URL('./oidc-server.mjs', import.meta.url));

/** The client credentials of the MCP server at the authorization server (introspection, client credentials). */
export const RESOURCE_SERVER_CLIENT = { id: 'mcp-resource-server', secret: 'resource-server-secret' };

export interface AuthorizationServer {
  issuer: string;
  /** Publishes and signs with a new key (the old one stays published); resolves to its key id. */
  rotateKeys(): Promise<string>;
  /** The lifetime of access tokens issued from now on. */
  setAccessTokenTtl(seconds: number): Promise<void>;
  /** The private signing keys as JWKs, newest first: for tokens the tests craft with the server's own key. */
  signingKeys(): Promise<Array<Record<string, unknown> & { kid: string }>>;
  /** A token for `resource` by the client credentials grant (the MCP server's own client). */
  clientCredentialsToken(resource: string, scope: string): Promise<string>;
  stop(): Promise<void>;
}

/** `trustCertificate`: a PEM file the server trusts for https fetches (a client's metadata document on loopback). */
export async function startAuthorizationServer(options: { trustCertificate?: string } = {}): Promise<AuthorizationServer> {
  const env = { ...process.env, ...(options.trustCertificate && { NODE_EXTRA_CA_CERTS: options.trustCertificate }) };
  const child: ChildProcess = spawn(process.execPath, [SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'], env });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = new JsonLines('the authorization server', child.stdout!);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const { issuer } = (await lines.waitFor((message) => typeof message.issuer === 'string', 'its issuer line').catch((error: Error) => {
    throw new Error(`${error.message}; stderr: ${stderr}`);
  })) as { issuer: string };
  const control = async (path: string, method = 'POST') => {
    const response = await fetch(`${issuer}/_test/${path}`, { method });
    if (!response.ok) throw new Error(`${method} /_test/${path}: HTTP ${response.status}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  return {
    issuer,
    rotateKeys: async () => (await control('rotate')).kid as string,
    setAccessTokenTtl: async (seconds) => void (await control(`access-token-ttl?seconds=${seconds}`)),
    signingKeys: async () => (await control('keys', 'GET')).keys as Array<Record<string, unknown> & { kid: string }>,
    clientCredentialsToken: async (resource, scope) => {
      const response = await fetch(`${issuer}/token`, {
        method: 'POST',
        headers: { authorization: `Basic ${Buffer.from(`${RESOURCE_SERVER_CLIENT.id}:${RESOURCE_SERVER_CLIENT.secret}`).toString('base64')}` },
        body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!body.access_token) throw new Error(`no token for ${resource}: ${JSON.stringify(body)}`);
      return body.access_token;
    },
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await within(exited, 'the authorization server to exit', () => stderr);
    },
  };
}

/**
 * Where a client publishes its Client ID Metadata Document: an https server on loopback with a self-signed
 * certificate for 127.0.0.1 (made by openssl), which the authorization server is told to trust.
 */
export interface MetadataDocumentHost {
  /** The PEM certificate's path, for `startAuthorizationServer({ trustCertificate })`. */
  certificate: string;
  /** The paths fetched so far (by the authorization server), in order. */
  fetched: string[];
  /** Serves `document()` at a URL of this host and resolves to that URL (the client id). */
  publish(path: string, document: (url: string) => Record<string, unknown>): Promise<string>;
  stop(): Promise<void>;
}

export function metadataDocumentHost(): MetadataDocumentHost {
  const dir = mkdtempSync(join(tmpdir(), 'nest-mcp-cimd-'));
  const [key, certificate] = [join(dir, 'key.pem'), join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', certificate, '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
  const documents = new Map<string, Record<string, unknown>>();
  const fetched: string[] = [];
  let server: Server | undefined;
  return {
    certificate,
    fetched,
    async publish(path, document) {
      server ??= await new Promise<Server>((resolve) => {
        const started = createServer({ key: readFileSync(key), cert: readFileSync(certificate) }, (req, res) => {
          fetched.push(req.url ?? '');
          const found = documents.get(req.url ?? '');
          res.writeHead(found ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(found ?? { error: 'not_found' }));
        });
        started.listen(0, '127.0.0.1', () => resolve(started));
      });
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
      documents.set(path, document(url));
      return url;
    },
    async stop() {
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One HTTP exchange a client made, as the tests assert the flow's order. */
export interface Exchange {
  method: string;
  url: URL;
  status: number;
  wwwAuthenticate: string | null;
  /** For a token request: its grant_type. */
  grantType?: string;
}

/** A fetch that records every exchange (MCP endpoint and authorization server alike) before handing back the response. */
export function recordingFetch(exchanges: Exchange[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === 'POST' ? await request.clone().text() : '';
    const response = await fetch(request);
    const grantType = request.headers.get('content-type')?.includes('x-www-form-urlencoded') ? (new URLSearchParams(body).get('grant_type') ?? undefined) : undefined;
    exchanges.push({ method: request.method, url: new URL(request.url), status: response.status, wwwAuthenticate: response.headers.get('www-authenticate'), ...(grantType && { grantType }) });
    return response;
  };
}

/**
 * An OAuth client provider for both official SDKs (their `OAuthClientProvider` has one shape): what it
 * registers and receives is kept in memory, and `redirectToAuthorization` signs in headlessly: it follows the
 * authorization server's redirects (carrying its cookies, as a browser would) up to the redirect URI, and keeps
 * the code for `finishAuth`.
 */
export class HeadlessOAuthProvider {
  readonly redirectUrl = 'http://127.0.0.1:1/oauth/callback';
  /** Every authorization request's URL, in order (its query is what the client asked for). */
  readonly authorizationRequests: URL[] = [];
  /** The latest authorization response (code and iss). */
  callback?: URLSearchParams;
  registered?: Record<string, unknown>;
  saved?: Record<string, unknown> & { access_token: string; refresh_token?: string; scope?: string };
  private verifier = '';
  private discovery?: unknown;
  private readonly cookies = new Map<string, string>();

  /** Set: the client id is this URL of its Client ID Metadata Document, where the server supports them. */
  clientMetadataUrl?: string;

  /** `refreshTokens: false`: registers for the authorization code grant alone, so it is issued no refresh token. */
  constructor(
    private readonly name: string,
    private readonly options: { refreshTokens?: boolean } = {},
  ) {}

  /** The Client ID Metadata Document served at `url`: its client id is that URL; a native client on loopback. */
  metadataDocument(url: string): Record<string, unknown> {
    return { client_id: url, ...this.clientMetadata, application_type: 'native' };
  }

  get clientMetadata() {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: this.options.refreshTokens === false ? ['authorization_code'] : ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.registered as never;
  }

  saveClientInformation(information: Record<string, unknown>) {
    this.registered = information;
  }

  tokens() {
    return this.saved as never;
  }

  saveTokens(tokens: Record<string, unknown> & { access_token: string }) {
    this.saved = tokens;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }

  saveDiscoveryState(state: unknown) {
    this.discovery = state;
  }

  discoveryState() {
    return this.discovery as never;
  }

  /** The auto-approving login: follows each redirect with this client's cookies until the redirect URI. */
  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    this.authorizationRequests.push(new URL(authorizationUrl));
    let next = new URL(authorizationUrl);
    for (let hop = 0; hop < 10; hop++) {
      const response = await fetch(next, { redirect: 'manual', headers: { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ') } });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const at = pair.indexOf('=');
        this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
      }
      const location = response.headers.get('location');
      await response.body?.cancel();
      if (!location) throw new Error(`the login stopped at ${next} with HTTP ${response.status}`);
      next = new URL(location, next);
      if (next.href.startsWith(this.redirectUrl)) {
        if (next.searchParams.has('error')) throw new Error(`authorization refused: ${next.searchParams.get('error')} ${next.searchParams.get('error_description')}`);
        this.callback = next.searchParams;
        return;
      }
    }
    throw new Error('the login did not reach the redirect URI in 10 redirects');
  }

  /** The latest authorization response (`code`, `iss`, `state`), once: what the browser brings to the redirect URI. */
  takeCallback(): URLSearchParams {
    const callback = this.callback;
    if (!callback?.get('code')) throw new Error('no authorization code: the client did not start an authorization');
    this.callback = undefined;
    return callback;
  }
}

/** The payload of a JWT, unverified: for assertions about what the authorization server issued. */
export function jwtClaims(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}
