// `npm run bench:store`: what accepting each requestState once costs per retried round — one
// McpStore.claimOnce, and with it the check of since when the store holds every claim
// (remembersSince) — in memory and against a real redis-server (started here on a free loopback
// port; skipped when the binary is missing), alone and with a replica online (each claim then waits
// for the replica: WAIT 1). Prints figures; asserts nothing about time.
//   node bench/store-claim.mjs [--quick]     (after `npm run build`)
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { InMemoryMcpStore, RedisMcpStore } from 'nest-mcp';
import { median, sleep, startRedis } from './harness.mjs';

const QUICK = process.argv.includes('--quick');
const RUNS = 5;
const CONCURRENCY = 50;
const TTL_MS = 300_000;
// Claimed as the module claims: counted in the claims budget.
const CLAIM = { kind: 'claim' };
/** Store options whose claims budget holds `claims` live claims. */
const holding = (claims) => ({ maxEntries: claims + 2, budgets: { claim: claims, task: 1, 'session-end': 1 } });

let nextKey = 0;
const key = () => `request-state:bench-${process.pid}-${nextKey++}`;

/** Median µs per claim of `count` claims made one after another (what one round waits for). */
async function sequential(store, count) {
  const perClaim = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) if (!(await store.claimOnce(key(), TTL_MS, CLAIM))) throw new Error('a fresh key was refused');
    perClaim.push(((performance.now() - t0) * 1000) / count);
  }
  return median(perClaim);
}

/** Median µs per refused claim of `count` claims on a full store (what a flood costs once the budget is full). */
async function refused(store, count) {
  const perClaim = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) {
      if (await store.claimOnce(key(), TTL_MS, CLAIM).then(() => true, () => false)) throw new Error('a full store took a claim');
    }
    perClaim.push(((performance.now() - t0) * 1000) / count);
  }
  return median(perClaim);
}

/** What a retried round asks of the store: is the token older than what the store holds (then refused), then its claim. */
const roundOf = (store) => ({
  claimOnce: async (key, ttlMs, scope) => {
    await store.remembersSince?.();
    return store.claimOnce(key, ttlMs, scope);
  },
});

/** A second redis-server made a replica of `masterUrl` (REPLICAOF), once the master counts it online; undefined when it does not come up. */
async function startReplica(masterUrl) {
  const replica = await startRedis();
  await replica.store.close();
  const admin = new Redis(replica.url);
  const master = new Redis(masterUrl);
  try {
    await admin.replicaof('127.0.0.1', new URL(masterUrl).port);
    for (let attempt = 0; attempt < 200; attempt++) {
      if ((await master.info('replication')).includes('state=online')) return replica;
      await sleep(50);
    }
  } finally {
    admin.disconnect();
    master.disconnect();
  }
  replica.stop();
  return undefined;
}

/** Median claims per second with `CONCURRENCY` claims in flight (many rounds at once). */
async function concurrent(store, count) {
  const rates = [];
  for (let run = 0; run < RUNS; run++) {
    let left = count;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await store.claimOnce(key(), TTL_MS, CLAIM);
      }),
    );
    rates.push(count / ((performance.now() - t0) / 1000));
  }
  return median(rates);
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * The claim figures of each store: [{ store, us, rate? }] (µs per sequential claim, claims/s with
 * `CONCURRENCY` in flight), or { store, skipped } for Redis without its binary. `npm run bench` reuses it.
 */
export async function claimFigures({ quick = QUICK } = {}) {
  const memoryClaims = quick ? 20_000 : 100_000;
  const redisClaims = quick ? 2_000 : 10_000;
  const figures = [];
  const memory = new InMemoryMcpStore(holding(memoryClaims * RUNS * 4));
  figures.push({ store: 'in memory', us: await sequential(memory, memoryClaims), rate: await concurrent(memory, memoryClaims) });
  figures.push({ store: "in memory, a round's check and claim", us: await sequential(roundOf(memory), memoryClaims) });
  const full = new InMemoryMcpStore(holding(10_000));
  for (let i = 0; i < 10_000; i++) await full.claimOnce(key(), TTL_MS, CLAIM);
  figures.push({ store: 'in memory, claims budget full (refused: -31503)', us: await refused(full, memoryClaims) });
  const redis = await startRedis(holding(redisClaims * RUNS * 4));
  if (!redis) return [...figures, { store: 'Redis', skipped: 'redis-server not installed (apt-get install -y redis-server)' }];
  let replica;
  let replicated;
  try {
    figures.push({ store: 'Redis (loopback, one script: budget, SET NX PX)', us: await sequential(redis.store, redisClaims), rate: await concurrent(redis.store, redisClaims) });
    figures.push({ store: "Redis, a round's check and claim", us: await sequential(roundOf(redis.store), redisClaims) });
    replica = await startReplica(redis.url);
    if (!replica) return [...figures, { store: 'Redis with a replica', skipped: 'the replica did not come online' }];
    // A store that connects with the replica online waits for it on every claim.
    replicated = await RedisMcpStore.connect(redis.url, { ...holding(redisClaims * RUNS * 4), keyPrefix: 'replicated:' });
    figures.push({ store: 'Redis with a replica online (claim, then WAIT 1)', us: await sequential(replicated, redisClaims), rate: await concurrent(replicated, redisClaims) });
    figures.push({ store: "Redis with a replica online, a round's check and claim", us: await sequential(roundOf(replicated), redisClaims) });
  } finally {
    await replicated?.close();
    await redis.store.close();
    replica?.stop();
    redis.stop();
  }
  return figures;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await claimFigures();
  console.log(`\nrequestState claim per retried round (median of ${RUNS} runs; ${CONCURRENCY} in flight for the rate)\n`);
  console.log('| store | one claim, sequential | claims/s, concurrent |');
  console.log('|---|---|---|');
  for (const f of figures) {
    const cells = f.skipped ? [`skipped: ${f.skipped}`, ''] : [`${fmt(f.us, f.us < 10 ? 2 : 1)} µs`, f.rate === undefined ? '' : `${fmt(f.rate)} claims/s`];
    console.log(`| ${[f.store, ...cells].join(' | ')} |`);
  }
}
