// `npm run bench:store`: what accepting each requestState once costs per retried round — one
// McpStore.claimOnce — in memory and against a real redis-server (started here on a free loopback
// port; skipped when the binary is missing). Prints figures; asserts nothing about time.
//   node bench/store-claim.mjs [--quick]     (after `npm run build`)
import { performance } from 'node:perf_hooks';
import { InMemoryMcpStore } from 'nest-mcp';
import { median, startRedis } from './harness.mjs';

const QUICK = process.argv.includes('--quick');
const RUNS = 5;
const MEMORY_CLAIMS = QUICK ? 20_000 : 100_000;
const REDIS_CLAIMS = QUICK ? 2_000 : 10_000;
const CONCURRENCY = 50;
const TTL_MS = 300_000;

let nextKey = 0;
const key = () => `request-state:bench-${process.pid}-${nextKey++}`;

/** Median µs per claim of `count` claims made one after another (what one round waits for). */
async function sequential(store, count) {
  const perClaim = [];
  for (let run = 0; run < RUNS; run++) {
    const t0 = performance.now();
    for (let i = 0; i < count; i++) if (!(await store.claimOnce(key(), TTL_MS))) throw new Error('a fresh key was refused');
    perClaim.push(((performance.now() - t0) * 1000) / count);
  }
  return median(perClaim);
}

/** Median claims per second with `CONCURRENCY` claims in flight (many rounds at once). */
async function concurrent(store, count) {
  const rates = [];
  for (let run = 0; run < RUNS; run++) {
    let left = count;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (left-- > 0) await store.claimOnce(key(), TTL_MS);
      }),
    );
    rates.push(count / ((performance.now() - t0) / 1000));
  }
  return median(rates);
}

const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const rows = [];

const memory = new InMemoryMcpStore({ maxEntries: MEMORY_CLAIMS * RUNS * 2 + 10 });
rows.push(['in memory', `${fmt(await sequential(memory, MEMORY_CLAIMS), 2)} µs`, `${fmt(await concurrent(memory, MEMORY_CLAIMS))} claims/s`]);
const full = new InMemoryMcpStore({ maxEntries: 10_000 });
await sequential(full, 10_000);
rows.push(['in memory, full (oldest give way)', `${fmt(await sequential(full, MEMORY_CLAIMS), 2)} µs`, '']);

const redis = await startRedis();
if (redis) {
  try {
    rows.push(['Redis (loopback, SET NX PX)', `${fmt(await sequential(redis.store, REDIS_CLAIMS), 1)} µs`, `${fmt(await concurrent(redis.store, REDIS_CLAIMS))} claims/s`]);
  } finally {
    await redis.store.close();
    redis.stop();
  }
} else {
  rows.push(['Redis', 'skipped: redis-server not installed (apt-get install -y redis-server)', '']);
}

console.log(`\nrequestState claim per retried round (median of ${RUNS} runs; ${CONCURRENCY} in flight for the rate)\n`);
console.log('| store | one claim, sequential | claims/s, concurrent |');
console.log('|---|---|---|');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
