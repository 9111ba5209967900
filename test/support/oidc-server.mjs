// A real OAuth 2.1 authorization server for the OAuth end-to-end tests: oidc-provider on a free loopback
// port, run as its own process (`node test/support/oidc-server.mjs`). It prints one JSON line with its
// issuer once it listens. What it does:
// - Client ID Metadata Documents (https) and dynamic client registration (open, for every scope), authorization code with PKCE, refresh tokens, client credentials,
//   token introspection (RFC 7662) and resource indicators (RFC 8707): a token is bound to the resource asked
//   for, any http://127.0.0.1 URL; JWT access tokens, or opaque ones for a resource whose path ends in /opaque;
// - a login that approves by itself (user "alice"): /interaction/:uid grants every scope asked for, so a test
//   follows the redirects with fetch and gets the code;
// - test controls under /_test: POST /_test/rotate (a new signing key; the old one stays published),
//   POST /_test/access-token-ttl?seconds=N, GET /_test/keys (the private signing keys, to sign crafted tokens).
import { generateKeyPair, exportJWK } from 'jose';
import { createServer } from 'node:http';
import Provider, { errors } from 'oidc-provider';

export const RESOURCE_SERVER_CLIENT = { id: 'mcp-resource-server', secret: 'resource-server-secret' };
const SCOPES = ['invoices:read', 'invoices:write'];

const state = { keys: [await signingKey()], accessTokenTtl: 300, provider: undefined, handle: undefined };

async function signingKey() {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: `key-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`, alg: 'RS256', use: 'sig' };
}

function makeProvider(issuer) {
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: RESOURCE_SERVER_CLIENT.id,
        client_secret: RESOURCE_SERVER_CLIENT.secret,
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
      },
    ],
    jwks: { keys: state.keys },
    scopes: ['openid', 'offline_access', ...SCOPES],
    cookies: { keys: ['oauth-e2e-cookie-key'] },
    findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Refresh tokens for every client allowed the grant (offline_access needs prompt=consent otherwise).
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: () => true,
    // Client ID Metadata Documents are fetched over https; the tests' client serves its document on loopback
    // (its certificate trusted through NODE_EXTRA_CA_CERTS), which oidc-provider's SSRF guard would refuse.
    fetch: (url, { dispatcher: _ssrfGuard, ...options }) => globalThis.fetch(url, options),
    features: {
      devInteractions: { enabled: false },
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resource) => {
          const url = new URL(resource);
          if (url.hostname !== '127.0.0.1') throw new errors.InvalidTarget();
          const opaque = url.pathname.endsWith('/opaque');
          return {
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: state.accessTokenTtl,
            accessTokenFormat: opaque ? 'opaque' : 'jwt',
            ...(!opaque && { jwt: { sign: { alg: 'RS256' } } }),
          };
        },
      },
    },
  });
  return provider;
}

function useProvider(provider) {
  state.provider = provider;
  state.handle = provider.callback();
}

/** The login that approves by itself: alice signs in and grants whatever the client asked for. */
async function interaction(req, res) {
  const provider = state.provider;
  const details = await provider.interactionDetails(req, res);
  if (details.prompt.name === 'login') {
    await provider.interactionFinished(req, res, { login: { accountId: 'alice' } }, { mergeWithLastSubmission: false });
    return;
  }
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
  const missing = details.prompt.details;
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(' '));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
}

async function control(req, res, url) {
  let body;
  if (req.method === 'POST' && url.pathname === '/_test/rotate') {
    state.keys = [await signingKey(), ...state.keys];
    useProvider(makeProvider(issuer));
    body = { kid: state.keys[0].kid };
  } else if (req.method === 'POST' && url.pathname === '/_test/access-token-ttl') {
    state.accessTokenTtl = Number(url.searchParams.get('seconds'));
    body = { accessTokenTtl: state.accessTokenTtl };
  } else if (req.method === 'GET' && url.pathname === '/_test/keys') {
    body = { keys: state.keys };
  } else {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/**
 * Dynamic registration without the `scope` the client sent: a registered client may later ask for any scope
 * the server has (oidc-provider would hold it to the registered ones), as a step-up for more scope needs.
 * oidc-provider reads a body that was already read from `req.body`.
 */
async function register(req, res) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const { scope: _scope, ...metadata } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  req.body = metadata;
  await state.handle(req, res);
}

const server = createServer((req, res) => {
  const url = new URL(req.url, issuer);
  const handle = url.pathname.startsWith('/_test/')
    ? control(req, res, url)
    : url.pathname.startsWith('/interaction/')
      ? interaction(req, res)
      : req.method === 'POST' && url.pathname === '/reg'
        ? register(req, res)
        : Promise.resolve(state.handle(req, res));
  handle.catch((error) => {
    console.error(error);
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: 'server_error', error_description: String(error?.message ?? error) }));
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;
useProvider(makeProvider(issuer));
process.stdout.write(`${JSON.stringify({ issuer })}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
