// `npm run bench:auth`: what the ready token verifiers cost per request. Verifications/s of
// McpJwtVerifier (keys fetched once from a JWKS served on loopback, then cached) and of
// McpIntrospectionVerifier (answers cached, and uncached: one loopback round trip per token) are printed
// as ratios to jose's own jwtVerify with the public key in hand, measured in the same run (runs
// interleaved, medians). Prints figures; asserts nothing about time.
//   node bench/auth-verify.mjs [--quick]     (after `npm run build`)
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { McpIntrospectionVerifier, McpJwtVerifier } from '../dist/lib/index.js';
import { median } from './harness.mjs';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 3 : 7;
const VERIFICATIONS = QUICK ? 2_000 : 10_000;
/** Distinct tokens verified in turn (a client sends one token many times; a server sees many clients). */
const POOL = 200;
const ISSUER = 'https://as.example.test';
const RESOURCE = 'https://api.example.test/mcp';

const { privateKey, publicKey } = await generateKeyPair('ES256');
const jwk = { ...(await exportJWK(publicKey)), kid: 'bench', alg: 'ES256', use: 'sig' };
const tokens = await Promise.all(
  Array.from({ length: POOL }, (_, i) =>
    new SignJWT({ scope: 'invoices:read invoices:write', client_id: 'bench-client' })
      .setProtectedHeader({ alg: 'ES256', kid: 'bench', typ: 'at+jwt' })
      .setIssuer(ISSUER)
      .setAudience(RESOURCE)
      .setSubject(`user-${i}`)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(privateKey),
  ),
);

// One loopback server: the JWKS, and an introspection endpoint that answers every token active.
const server = createServer((req, res) => {
  if (req.url === '/jwks') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  req.resume();
  req.on('end', () =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ active: true, aud: RESOURCE, sub: 'user', client_id: 'bench-client', scope: 'invoices:read', exp: Math.floor(Date.now() / 1000) + 3600 })),
  );
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${server.address().port}`;

const jwt = new McpJwtVerifier({ issuer: ISSUER, audience: RESOURCE, jwksUri: `${base}/jwks` });
const introspection = { endpoint: `${base}/introspect`, clientId: 'rs', clientSecret: 'secret', audience: RESOURCE };
const cached = new McpIntrospectionVerifier({ ...introspection, cacheTtlSeconds: 3600 });
const uncached = new McpIntrospectionVerifier({ ...introspection, cacheTtlSeconds: 0 });

const rows = [
  { label: 'jose jwtVerify, key in hand (baseline)', verify: (token) => jwtVerify(token, publicKey, { issuer: ISSUER, audience: RESOURCE, algorithms: ['ES256'] }) },
  { label: 'McpJwtVerifier (remote JWKS, cached)', verify: (token) => jwt.verify(token) },
  { label: 'McpIntrospectionVerifier, cached answers', verify: (token) => cached.verify(token) },
  { label: 'McpIntrospectionVerifier, no cache (a loopback round trip each)', verify: (token) => uncached.verify(token), count: Math.ceil(VERIFICATIONS / 10) },
];

/** Verifications/s of `count` verifications one after another. */
async function rate(row, count) {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) await row.verify(tokens[i % POOL]);
  return count / ((performance.now() - t0) / 1000);
}

for (const row of rows) await rate(row, POOL); // JIT warm-up, key set fetched, answers cached
const rates = rows.map(() => []);
for (let run = 0; run < RUNS; run++) for (const [n, row] of rows.entries()) rates[n].push(await rate(row, row.count ?? VERIFICATIONS));
server.close();

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const baseline = median(rates[0]);
console.log(`\nToken verification (median of ${RUNS} interleaved runs; ES256; node ${process.version})\n`);
console.log('| verifier | verifications/s | ratio to jose with the key in hand |');
console.log('|---|---|---|');
for (const [n, row] of rows.entries()) console.log(`| ${row.label} | ${fmt(median(rates[n]))} | ${fmt(median(rates[n]) / baseline, 2)}× |`);
