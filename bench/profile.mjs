// `node bench/profile.mjs [seconds] [--fastify] [--server name] [--tool name] [--meter-only] [--heap]` (after `npm run build`):
// first meters a plain child under the same echo load as `npm run bench` (CPU µs and heap bytes allocated
// per call, read inside the server process, so they hold on a busy box where req/s does not), then
// CPU-profiles a second child and prints the top self-time functions, mapped back to lib/*.ts:line through
// the dist source maps. The .cpuprofile is kept in the OS temp dir (open it in Chrome DevTools).
//   --fastify      the server on @nestjs/platform-fastify
//   --server name  another bench/servers/<name>.mjs (plain-nest with FLOOR_MODE=raw set by the caller, node-http, …)
//   --tool name    the tool called (echo; `guarded`: the same echo behind a guard and an interceptor)
//   --heap         who allocates per call instead of the CPU profile (HEAP_BY=lib in the environment: each
//                  byte charged to the innermost lib/ frame it was allocated under, so a step's whole cost shows)
import { mkdtempSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cannon, echoRequest, startServer } from './harness.mjs';

const option = (name) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : undefined;
};
const seconds = Math.min(Math.max(Number(process.argv[2] ?? 8) || 8, 1), 60);
const serverName = option('server') ?? 'nest-mcp';
const env = process.argv.includes('--fastify') ? { MCP_HTTP_ADAPTER: 'fastify' } : {};
const tool = option('tool') ?? 'echo';
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(path.join(os.tmpdir(), 'nest-mcp-prof-'));
const body = echoRequest();
body.params.name = tool;

/** CPU µs and heap bytes per call over one load run, measured by the server child itself. */
export async function meterServer(server, requestBody, { connections = 50, duration = seconds } = {}) {
  await cannon(server.url, requestBody, { connections, duration: 1 });
  const before = await server.ask('meter-start');
  const r = await cannon(server.url, requestBody, { connections, duration });
  const after = await server.ask('meter-stop');
  const cpuUs = after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system;
  const userUs = after.cpu.user - before.cpu.user;
  return { calls: r.total, rps: r.rps, bad: r.non2xx + r.errors + r.timeouts, cpuUsPerCall: cpuUs / r.total, userUsPerCall: userUs / r.total, bytesPerCall: after.allocated / r.total, gcs: after.gcs, gcMsPerKCall: (after.gcMs * 1000) / r.total };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const metered = await startServer(serverName, { env });
  try {
    const m = await meterServer(metered, body);
    console.log(
      `${serverName}${env.MCP_HTTP_ADAPTER ? ' (fastify)' : ''} ${tool}: ${m.calls} calls at ${Math.round(m.rps)} req/s (bad ${m.bad}); ` +
        `CPU ${m.cpuUsPerCall.toFixed(1)} µs/call (user ${m.userUsPerCall.toFixed(1)}), heap ${Math.round(m.bytesPerCall)} bytes/call, ${m.gcs} GCs (${m.gcMsPerKCall.toFixed(2)} ms per 1k calls)`,
    );
  } finally {
    await metered.stop();
  }
  if (process.argv.includes('--heap')) await heapProfile();
  else if (!process.argv.includes('--meter-only')) await cpuProfile();
}

/** `--heap`: who allocates per call (sampled; collected objects included), self bytes per call. */
async function heapProfile() {
  const server = await startServer(serverName, { env });
  try {
    await cannon(server.url, body, { connections: 50, duration: 1 });
    await server.ask('heap-sample-start');
    const r = await cannon(server.url, body, { connections: 50, duration: seconds });
    const { top } = await server.ask('heap-sample-stop', 60_000);
    console.log(`\nsampled allocations over ${r.total} calls (bytes per call, self):`);
    for (const [where, bytes] of top) console.log(`  ${String(Math.round(bytes / r.total)).padStart(6)}  ${where}`);
  } finally {
    await server.stop();
  }
}

async function cpuProfile() {
const server = await startServer(serverName, { env, execArgv: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '250'] });
try {
  await cannon(server.url, body, { connections: 50, duration: 1 });
  const r = await cannon(server.url, body, { connections: 50, duration: seconds });
  console.log(`profiled ${r.total} calls at ${Math.round(r.rps)} req/s (non-2xx ${r.non2xx}, errors ${r.errors})`);
} finally {
  await server.stop();
}

const file = readdirSync(dir).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`no .cpuprofile written in ${dir}`);
const profile = JSON.parse(readFileSync(path.join(dir, file), 'utf8'));
console.log(`profile: ${path.join(dir, file)}`);

// ---- source maps (dist/lib/**/*.js.map -> lib/**/*.ts) ----
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
function decodeMappings(mappings) {
  // lines[generatedLine] = [[genCol, srcIndex, srcLine, srcCol], ...]
  const lines = [];
  let src = 0;
  let srcLine = 0;
  let srcCol = 0;
  for (const lineText of mappings.split(';')) {
    const segs = [];
    let genCol = 0;
    for (const seg of lineText.split(',')) {
      if (!seg) continue;
      const values = [];
      let value = 0;
      let shift = 0;
      for (const ch of seg) {
        const digit = B64.indexOf(ch);
        value += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          values.push(value & 1 ? -(value >>> 1) : value >>> 1);
          value = 0;
          shift = 0;
        }
      }
      genCol += values[0];
      if (values.length >= 4) {
        src += values[1];
        srcLine += values[2];
        srcCol += values[3];
        segs.push([genCol, src, srcLine, srcCol]);
      }
    }
    lines.push(segs);
  }
  return lines;
}
const maps = new Map();
function mapPosition(url, line0, col0) {
  if (!url.startsWith('file://')) return undefined;
  const jsPath = fileURLToPath(url);
  if (!jsPath.startsWith(path.join(root, 'dist'))) return undefined;
  if (!maps.has(jsPath)) {
    const mapPath = `${jsPath}.map`;
    if (!existsSync(mapPath)) maps.set(jsPath, null);
    else {
      const map = JSON.parse(readFileSync(mapPath, 'utf8'));
      maps.set(jsPath, { sources: map.sources.map((s) => path.resolve(path.dirname(jsPath), map.sourceRoot ?? '', s)), lines: decodeMappings(map.mappings) });
    }
  }
  const map = maps.get(jsPath);
  if (!map) return undefined;
  const segs = map.lines[line0] ?? [];
  let best = segs[0];
  for (const seg of segs) if (seg[0] <= col0) best = seg;
  if (!best) return undefined;
  return `${path.relative(root, map.sources[best[1]])}:${best[2] + 1}`;
}

function where(frame) {
  const mapped = mapPosition(frame.url, frame.lineNumber, frame.columnNumber);
  if (mapped) return mapped;
  if (!frame.url) return '(native)';
  const p = frame.url.startsWith('file://') ? path.relative(root, fileURLToPath(frame.url)) : frame.url;
  return `${p}:${frame.lineNumber + 1}`;
}

function bucket(frame) {
  const url = frame.url ?? '';
  if (!url) return frame.functionName.startsWith('(') ? frame.functionName : '(native/builtin)';
  if (url.includes('/dist/lib/')) return 'nest-mcp lib/';
  if (url.includes('/bench/')) return 'bench fixture';
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.startsWith('node:')) return 'node core';
  return url;
}

// ---- self time per node ----
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const id = profile.samples[i];
  selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
}
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const idleIds = new Set(profile.nodes.filter((n) => ['(idle)', '(program)', '(garbage collector)'].includes(n.callFrame.functionName)).map((n) => n.id));
const busy = total - [...idleIds].filter((id) => byId.get(id).callFrame.functionName === '(idle)').reduce((a, id) => a + (selfUs.get(id) ?? 0), 0);

const fns = new Map();
const buckets = new Map();
const libLines = new Map();
for (const [id, us] of selfUs) {
  const node = byId.get(id);
  const frame = node.callFrame;
  if (frame.functionName === '(idle)') continue;
  const key = `${frame.functionName || '(anonymous)'} @ ${where(frame)}`;
  fns.set(key, (fns.get(key) ?? 0) + us);
  const b = bucket(frame);
  buckets.set(b, (buckets.get(b) ?? 0) + us);
  if (frame.url.includes('/dist/lib/') && node.positionTicks) {
    const ticks = node.positionTicks.reduce((a, t) => a + t.ticks, 0);
    for (const t of node.positionTicks) {
      const at = mapPosition(frame.url, t.line - 1, 0) ?? `${where(frame)}`;
      libLines.set(at, (libLines.get(at) ?? 0) + (us * t.ticks) / ticks);
    }
  }
}
const pct = (us) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n);

console.log(`\nbusy CPU ${(busy / 1e6).toFixed(2)} s of ${(total / 1e6).toFixed(2)} s sampled\n\nself time by package:`);
for (const [name, us] of top(buckets, 15)) console.log(`  ${pct(us)}  ${name}`);
console.log('\ntop self-time functions:');
for (const [name, us] of top(fns, 30)) console.log(`  ${pct(us)}  ${name}`);
console.log('\nhottest lib/ lines (self time):');
for (const [name, us] of top(libLines, 20)) console.log(`  ${pct(us)}  ${name}`);
}
