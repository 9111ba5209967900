// `npm run bench:keys`: what previous sealing keys (`mocapi.mrtr.previous-secrets`) cost when a
// requestState or a 2025 session id is opened. Each sealed value names its key, so opening looks one
// key up: the opens/s with 3 previous keys, of a value sealed by the current key or by the oldest
// previous one, are printed as ratios to the opens/s with no previous key, measured in the same run
// (runs interleaved, medians). Prints figures; asserts nothing about time.
//   node bench/seal-keys.mjs [--quick]     (after `npm run build`)
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { LegacySessionCodec } from '../dist/lib/era/session.js';
import { RequestStateCodec, SealKeys } from '../dist/lib/mrtr/index.js';
import { median } from './harness.mjs';

const QUICK = process.argv.includes('--quick');
const RUNS = QUICK ? 5 : 11;
const OPENS = QUICK ? 20_000 : 100_000;
/** Distinct values opened in turn (decoding claims nothing, so a value may be opened again). */
const POOL = 1_000;
const TTL_MS = 300_000;

const current = randomBytes(32);
const previous = [randomBytes(32), randomBytes(32), randomBytes(32)];
const oldest = previous[2];

/** A round-3 requestState: three answered questions and one pending, as a real elicitation carries. */
const state = {
  method: 'tools/call',
  target: 'upgrade-plan',
  argsDigest: randomBytes(32).toString('base64url'),
  rounds: ['plan', 'seats', 'confirm'].map((key, n) => ({
    fingerprint: randomBytes(16).toString('base64url'),
    responses: { [`elicitation-${n + 1}`]: { action: 'accept', content: { [key]: n === 2 ? true : `answer ${n}` } } },
  })),
  pending: { fingerprint: randomBytes(16).toString('base64url'), keys: ['elicitation-4'] },
};
const session = { protocolVersion: '2025-11-25', clientCapabilities: { elicitation: {} }, clientInfo: { name: 'bench', version: '1.0.0' } };

/** The two codecs over `keys`, and a pool of values each seals with its current key. */
function subject(keys) {
  const requestState = new RequestStateCodec(keys, TTL_MS);
  const sessions = new LegacySessionCodec(keys, TTL_MS);
  return {
    requestState,
    sessions,
    states: Array.from({ length: POOL }, () => requestState.encode(state)),
    sessionIds: Array.from({ length: POOL }, () => sessions.issue(session).sessionId),
  };
}

const none = subject(new SealKeys(current));
const three = subject(new SealKeys(current, previous));
// Sealed when the oldest previous key was current: opened now through the previous key.
const sealedByOldest = subject(new SealKeys(oldest));

const rows = [
  { kind: 'requestState', label: '0 previous keys (baseline)', open: (i) => none.requestState.decode(none.states[i % POOL]) },
  { kind: 'requestState', label: '3 previous keys, sealed by the current key', open: (i) => three.requestState.decode(three.states[i % POOL]) },
  { kind: 'requestState', label: '3 previous keys, sealed by the oldest previous key', open: (i) => three.requestState.decode(sealedByOldest.states[i % POOL]) },
  { kind: 'session id', label: '0 previous keys (baseline)', open: (i) => none.sessions.open(none.sessionIds[i % POOL]) },
  { kind: 'session id', label: '3 previous keys, sealed by the current key', open: (i) => three.sessions.open(three.sessionIds[i % POOL]) },
  { kind: 'session id', label: '3 previous keys, sealed by the oldest previous key', open: (i) => three.sessions.open(sealedByOldest.sessionIds[i % POOL]) },
];

/** Opens/s of `count` opens one after another; every open must succeed. */
function rate(row, count) {
  const t0 = performance.now();
  for (let i = 0; i < count; i++) if (!row.open(i)) throw new Error(`${row.kind}, ${row.label}: a value did not open`);
  return count / ((performance.now() - t0) / 1000);
}

/** Median opens/s per row, the rows' runs interleaved so drift (turbo, GC, other load) falls on all alike. */
export function sealKeyFigures() {
  for (const row of rows) rate(row, 5_000); // JIT warm-up
  const rates = rows.map(() => []);
  for (let run = 0; run < RUNS; run++) rows.forEach((row, n) => rates[n].push(rate(row, OPENS)));
  return rows.map((row, n) => {
    const baseline = rows.find((other) => other.kind === row.kind);
    return { ...row, rate: median(rates[n]), baseline: median(rates[rows.indexOf(baseline)]) };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const figures = sealKeyFigures();
  console.log(`\nOpening sealed values with previous keys (median of ${RUNS} interleaved runs of ${fmt(OPENS)} opens; node ${process.version})\n`);
  console.log('| value | keys configured | opens/s | ratio to 0 previous keys |');
  console.log('|---|---|---|---|');
  for (const f of figures) console.log(`| ${f.kind} | ${f.label} | ${fmt(f.rate)} | ${fmt(f.rate / f.baseline, 2)}× |`);
}
