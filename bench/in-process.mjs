// `node bench/in-process.mjs [calls]` (after `npm run build`): the MCP work of one tools/call, timed in one
// process with no sockets, so the kernel's loopback and the load generator's wakeups (which swing req/s 2× on a
// shared VM) stay out of it. The bench's echo call goes to `McpHttpTransport.handlePost()` with its body parsed
// and a stand-in response; the baseline is the same answer written to the same stand-in response as the raw
// floor writes it (JSON.stringify, writeHead, end). Rounds alternate the two; medians of CPU ns per call,
// heap bytes allocated per call, and promises made per call (an async_hooks count, in a pass of its own).
// What the endpoint's edge does before handlePost() (headers, body read) is not in either.
import { createHook } from 'node:async_hooks';
import { EventEmitter } from 'node:events';
import { AppModule } from './servers/nest-mcp.module.mjs';
import { allocationMeter, createApp } from './servers/child.mjs';
import { echoRequest, headersFor } from './harness.mjs';
import { McpHttpTransport } from '../dist/lib/transport/http/mcp-http.transport.js';

const calls = Math.max(Number(process.argv[2] ?? 50_000) || 50_000, 1_000);
const ROUNDS = 7;
const body = JSON.stringify(echoRequest());
const headers = { host: '127.0.0.1', ...headersFor(echoRequest()), 'content-length': String(Buffer.byteLength(body)) };
const SERVER_META = { 'io.modelcontextprotocol/serverInfo': { name: 'nest-mcp-bench', version: '0.1.0' } };

/** What handlePost() and the baseline use of Node's ServerResponse; `end()` settles the call. */
class StandInResponse extends EventEmitter {
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  statusCode = 200;
  constructor(done) {
    super();
    this.done = done;
  }
  setHeader() {}
  writeHead(status) {
    this.statusCode = status;
    this.headersSent = true;
    return this;
  }
  write() {
    return true;
  }
  end(text) {
    this.writableEnded = this.writableFinished = true;
    this.done(this.statusCode === 200 ? text : new Error(`HTTP ${this.statusCode}: ${text}`));
  }
}

const app = await createApp(AppModule, { logger: ['error'] });
await app.init();
const transport = app.get(McpHttpTransport);

const subjects = {
  baseline: (req, res) => {
    const text = JSON.stringify({ jsonrpc: '2.0', id: req.body.id, result: { resultType: 'complete', content: [{ type: 'text', text: req.body.params.arguments.message }], _meta: SERVER_META } });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  },
  handlePost: (req, res) => transport.handlePost(req, res),
};

const once = (serve) =>
  new Promise((resolve, reject) => {
    const req = { method: 'POST', url: '/mcp', headers, body: JSON.parse(body), socket: {} };
    serve(req, new StandInResponse((answer) => (answer instanceof Error ? reject(answer) : resolve(answer))));
  });

// Both answer the same bytes, or the comparison means nothing.
const [expected, actual] = [await once(subjects.baseline), await once(subjects.handlePost)];
if (expected !== actual) throw new Error(`handlePost() answered ${actual}, the baseline ${expected}`);

const meter = allocationMeter();
const figures = { baseline: [], handlePost: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, serve] of Object.entries(subjects)) {
    for (let i = 0; i < 2_000; i++) await once(serve);
    meter.start();
    const cpu = process.cpuUsage();
    for (let i = 0; i < calls; i++) await once(serve);
    const used = process.cpuUsage(cpu);
    const { allocated } = meter.stop();
    figures[name].push({ ns: ((used.user + used.system) * 1000) / calls, bytes: allocated / calls });
  }
}

let promises = 0;
const hook = createHook({ init: (_id, type) => void (type === 'PROMISE' && promises++) });
const promisesPerCall = {};
for (const [name, serve] of Object.entries(subjects)) {
  promises = 0;
  hook.enable();
  for (let i = 0; i < 1_000; i++) await once(serve);
  hook.disable();
  promisesPerCall[name] = promises / 1_000;
}
await app.close();

const median = (values) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)];
const row = (name) => ({ ns: median(figures[name].map((f) => f.ns)), bytes: median(figures[name].map((f) => f.bytes)), promises: promisesPerCall[name] });
const [base, mcp] = [row('baseline'), row('handlePost')];
const line = (label, r) => `  ${label.padEnd(44)} ${String(Math.round(r.ns)).padStart(6)} ns/call  ${(r.bytes / 1024).toFixed(1).padStart(5)} KB/call  ${String(r.promises).padStart(3)} promises/call`;
console.log(`in-process tools/call echo, ${calls.toLocaleString('en-US')} calls × ${ROUNDS} rounds each, Node ${process.version} (medians):`);
console.log(line('baseline (the answer written, as the floor)', base));
console.log(line('McpHttpTransport.handlePost()', mcp));
console.log(
  `  the MCP work: ${Math.round(mcp.ns - base.ns)} ns, ${((mcp.bytes - base.bytes) / 1024).toFixed(1)} KB and ${mcp.promises - base.promises} promises per call ` +
    `(handlePost() ${(mcp.ns / base.ns).toFixed(2)}× the baseline's CPU)`,
);
