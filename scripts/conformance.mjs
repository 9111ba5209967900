#!/usr/bin/env node
// Runs the official MCP conformance suite (server leg, revision 2026-07-28)
// against the conformance fixture app (dist/sample/conformance/main.js); without
// --scenario it first runs the 2025-11-25 requirements (the legacy era, one endpoint)
// against the same fixture, with the committed baseline
// sample/conformance/expected-failures-2025-11-25.yaml (each entry with its reason):
// that leg fails on a scenario not listed there, or a listed one that passes, and
// prints `conformance 2025-11-25: N of 30 scored scenarios pass; the other … are the expected failures …`.
//
//   npm run test:conformance [-- FLAGS]
//   node scripts/conformance.mjs [FLAGS] [-- EXTRA SUITE ARGS]
//
// Flags:
//   --no-build         do not run `npm run build` first
//   --report           write conformance-results/REPORT.md (and print it)
//   --scenario NAME    run one scenario (adds --spec-version 2026-07-28 --verbose;
//                      extension scenarios (tasks-*, sep-2640-skills-*) run without --spec-version)
//   --timeout MS       per-scenario suite timeout (default 15000)
//   --help
// Anything after `--` is appended to the suite's `server` command line.
//
// Environment:
//   CONFORMANCE_SERVER_CMD   shell command that starts the fixture instead of
//                            `node dist/sample/conformance/main.js`
//                            (e.g. `node /tmp/dummy.mjs`). It gets PORT and HOST
//                            in its environment and must serve POST /mcp.
//   CONFORMANCE_READY_TIMEOUT_MS  readiness wait (default 20000)
//   CONFORMANCE_FIXTURE_LOG=1  also stream the fixture's stdout/stderr live
//
// Exit code: 0 only if the suite exited 0 AND no scored scenario has a WARNING
// check (SHOULD-level checks count in this project) AND every scored scenario
// wrote checks.json. not_scored (pending / extension) scenarios never count.
// The 10 scenarios of the tasks extension (TASKS_SCENARIOS) are not scored but are required here:
// the full run reports them on their own line, `conformance tasks: N passed, M failed`, and any
// failure among them (a FAILURE check, or a scenario that did not run) fails the run too.
// The 3 server scenarios of the skills extension (SKILLS_SCENARIOS, SEP-2640) are in no requirements
// file: the full run runs them as a leg of their own, one `--scenario` each, reports
// `conformance skills: N passed, M failed`, and any failure among them fails the run too.
// The last line is `conformance: N passed, M failed` (scored scenarios).

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync, createWriteStream } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REVISION = '2026-07-28';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PKG_DIR = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance');
const SUITE_BIN = path.join(PKG_DIR, 'dist/index.js');
const REQUIREMENTS = path.join(PKG_DIR, `requirements/${REVISION}.yaml`);
const LEGACY_REVISION = '2025-11-25';
const LEGACY_EXPECTED_FAILURES = path.join(ROOT, `sample/conformance/expected-failures-${LEGACY_REVISION}.yaml`);
const FIXTURE_ENTRY = 'dist/sample/conformance/main.js';
const RESULTS_ROOT = path.join(ROOT, 'conformance-results');
const READY_TIMEOUT_MS = Number(process.env.CONFORMANCE_READY_TIMEOUT_MS || 20000);
const KILL_GRACE_MS = 5000;
// io.modelcontextprotocol/tasks (SEP-2663): not_scored (reason: extension) in the requirements file,
// which runs them; this project requires every one of them to pass.
const TASKS_SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];
// io.modelcontextprotocol/skills (SEP-2640): pending, in no requirements file; required here.
const SKILLS_SCENARIOS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

// ---------------------------------------------------------------- arguments
function parseArgs(argv) {
  const opts = { build: true, report: false, scenario: null, timeout: '15000', extra: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined || v === '') die(`missing value for ${a}`);
      return v;
    };
    if (a === '--') { opts.extra = argv.slice(i + 1); break; }
    else if (a === '--no-build') opts.build = false;
    else if (a === '--report') opts.report = true;
    else if (a === '--scenario' || a.startsWith('--scenario=')) opts.scenario = value();
    else if (a === '--timeout' || a.startsWith('--timeout=')) opts.timeout = value();
    else if (a === '--help' || a === '-h') { usage(); process.exit(0); }
    else die(`unknown argument: ${a} (see --help)`);
  }
  if (!/^\d+$/.test(opts.timeout)) die(`--timeout must be a number of milliseconds, got ${opts.timeout}`);
  return opts;
}

function usage() {
  const text = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
  const end = text.findIndex((l) => l.startsWith('import '));
  console.log(text.slice(1, end).map((l) => l.replace(/^\/\/ ?/, '')).join('\n').trim());
}

function die(msg, code = 2) {
  console.error(`conformance: ${msg}`);
  process.exit(code);
}

// ---------------------------------------------------------------- requirements yaml
// Minimal reader for the frozen requirements file: the `server:` list and the
// `not_scored:` entries with leg `server`. No yaml dependency.
function readRequirements(file = REQUIREMENTS) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const scored = [];
  const notScored = []; // {scenario, reason}
  let section = null;
  let cur = null;
  const flush = () => {
    if (cur && cur.leg === 'server') notScored.push({ scenario: cur.scenario, reason: cur.reason || 'not_scored' });
    cur = null;
  };
  for (const raw of lines) {
    const line = raw.replace(/\s+#.*$/, '').replace(/\s+$/, '');
    if (!line || line.startsWith('#')) continue;
    const top = /^([A-Za-z_][\w-]*):\s*$/.exec(line);
    if (top) { flush(); section = top[1]; continue; }
    if (section === 'server') {
      const m = /^\s+-\s+(\S+)$/.exec(line);
      if (m) scored.push(m[1]);
    } else if (section === 'not_scored') {
      let m = /^\s+-\s+scenario:\s*(\S+)$/.exec(line);
      if (m) { flush(); cur = { scenario: m[1] }; continue; }
      m = /^\s+(leg|reason):\s*(\S+)$/.exec(line);
      if (m && cur) cur[m[1]] = m[2];
    }
  }
  flush();
  if (scored.length === 0) die(`could not read the scored server scenarios from ${file}`);
  return { scored, notScored };
}

// ---------------------------------------------------------------- helpers
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function tail(buf, max = 4000) {
  const s = buf.join('');
  return s.length > max ? `…${s.slice(-max)}` : s;
}

function timestamp() {
  return new Date().toISOString().replace(/[:.]/g, '-');
}

// ---------------------------------------------------------------- fixture
class Fixture {
  constructor(port, logFile) {
    this.port = port;
    this.output = [];
    this.exited = null; // {code, signal}
    const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1' };
    const custom = process.env.CONFORMANCE_SERVER_CMD;
    this.describe = custom ? custom : `node ${FIXTURE_ENTRY}`;
    // detached: own process group, so a shell wrapper and its children are stopped together.
    const spawnOpts = { cwd: ROOT, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] };
    this.child = custom
      ? spawn(shellCommand(custom), { ...spawnOpts, shell: true })
      : spawn(process.execPath, [FIXTURE_ENTRY], spawnOpts);
    this.log = createWriteStream(logFile);
    const live = process.env.CONFORMANCE_FIXTURE_LOG === '1';
    for (const [stream, sink] of [[this.child.stdout, process.stdout], [this.child.stderr, process.stderr]]) {
      stream.on('data', (d) => {
        const s = d.toString();
        this.output.push(s);
        if (this.output.length > 400) this.output.splice(0, 200);
        this.log.write(d);
        if (live) sink.write(`[fixture] ${s}`);
      });
    }
    this.exitPromise = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => { this.exited = { code, signal }; resolve(); });
      this.child.on('error', (err) => {
        this.output.push(`spawn error: ${err.message}\n`);
        this.exited = { code: null, signal: null, error: err };
        resolve();
      });
    });
  }

  get url() { return `http://127.0.0.1:${this.port}/mcp`; }

  async waitReady() {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const body = JSON.stringify({
      jsonrpc: '2.0', id: 1, method: 'server/discover',
      params: { _meta: { 'io.modelcontextprotocol/protocolVersion': REVISION, 'io.modelcontextprotocol/clientCapabilities': {} } },
    });
    let last = 'no response yet';
    while (Date.now() < deadline) {
      if (this.exited) return { ok: false, why: `fixture exited early (${fmtExit(this.exited)})` };
      try {
        const res = await fetch(this.url, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
            'MCP-Protocol-Version': REVISION,
            'Mcp-Method': 'server/discover',
          },
          body,
          signal: AbortSignal.timeout(2000),
        });
        await res.arrayBuffer().catch(() => {});
        if (res.status === 200) return { ok: true };
        last = `HTTP ${res.status}`;
      } catch (e) {
        last = e?.cause?.code || e?.name || String(e);
      }
      await sleep(200);
    }
    return { ok: false, why: `fixture not ready after ${READY_TIMEOUT_MS} ms (last probe: ${last})` };
  }

  signalGroup(sig) {
    try { process.kill(-this.child.pid, sig); } catch { try { this.child.kill(sig); } catch { /* gone */ } }
  }

  groupAlive() {
    try { process.kill(-this.child.pid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
  }

  async stop() {
    if (this.stopping) return this.stopping;
    this.stopping = (async () => {
      if (this.child.pid !== undefined) {
        // SIGTERM the whole process group, wait up to 5 s for every member to go, then SIGKILL.
        if (this.groupAlive()) this.signalGroup('SIGTERM');
        const deadline = Date.now() + KILL_GRACE_MS;
        while (this.groupAlive() && Date.now() < deadline) await sleep(100);
        if (this.groupAlive()) {
          console.error(`conformance: fixture did not stop within ${KILL_GRACE_MS / 1000} s of SIGTERM, sending SIGKILL`);
          this.signalGroup('SIGKILL');
        }
        await Promise.race([this.exitPromise, sleep(1000)]);
      }
      await new Promise((r) => this.log.end(r));
    })();
    return this.stopping;
  }
}

// A simple command is run as `exec CMD`, so the fixture replaces the shell and is the
// process-group leader (no orphaned child of a dead shell). Compound commands run as given.
function shellCommand(cmd) {
  if (/[;&|()<>`\n]/.test(cmd) || /^\s*([A-Za-z_]\w*=|exec\s)/.test(cmd)) return cmd;
  return `exec ${cmd}`;
}

function fmtExit(e) {
  if (e.error) return `spawn failed: ${e.error.message}`;
  return e.signal ? `signal ${e.signal}` : `exit code ${e.code}`;
}

// ---------------------------------------------------------------- results
// DIR/server-<scenario>-<YYYY-MM-DDTHH-MM-SS-mmmZ>/checks.json; newest per scenario.
function readResults(dir) {
  const byScenario = new Map();
  if (!existsSync(dir)) return byScenario;
  for (const name of readdirSync(dir)) {
    const m = /^server-(.+)-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)$/.exec(name);
    if (!m) continue;
    const [, scenario, ts] = m;
    const prev = byScenario.get(scenario);
    if (prev && prev.ts >= ts) continue;
    const file = path.join(dir, name, 'checks.json');
    let checks = null;
    let error = null;
    if (existsSync(file)) {
      try { checks = JSON.parse(readFileSync(file, 'utf8')); } catch (e) { error = `unreadable checks.json: ${e.message}`; }
      if (checks && !Array.isArray(checks)) { checks = null; error = 'checks.json is not an array'; }
    }
    byScenario.set(scenario, { ts, checks, error });
  }
  return byScenario;
}

function trim(s, n = 100) {
  const one = String(s ?? '').replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
}

// -> {result:'pass'|'fail', reason, warnings:[check]}
function evaluate(scenario, entry, scored, thrown) {
  if (!entry || !entry.checks) {
    let reason = entry?.error ? `scenario did not run (${entry.error})` : 'scenario did not run (no checks.json)';
    if (thrown.has(scenario)) reason += `: ${trim(thrown.get(scenario))}`;
    return { result: 'fail', reason, warnings: [] };
  }
  const bad = entry.checks.filter((c) => c.status === 'FAILURE' || (scored && c.status === 'WARNING'));
  const warnings = scored ? entry.checks.filter((c) => c.status === 'WARNING') : [];
  if (bad.length === 0) return { result: 'pass', reason: '', warnings };
  const ids = [...new Set(bad.map((c) => (c.status === 'WARNING' ? `${c.id} (W)` : c.id)))];
  const first = bad[0];
  const msg = trim(first.errorMessage || first.description, 100);
  const shown = ids.length > 4 ? `${ids.slice(0, 4).join(', ')} (+${ids.length - 4} more)` : ids.join(', ');
  return { result: 'fail', reason: `${shown}: ${msg}`, warnings };
}

function mdCell(s) {
  return String(s).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

// ---------------------------------------------------------------- main
async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const req = readRequirements();
  const kindOf = new Map(req.scored.map((s) => [s, 'scored']));
  for (const n of req.notScored) kindOf.set(n.scenario, n.reason);
  for (const s of SKILLS_SCENARIOS) kindOf.set(s, 'extension');

  if (Number(process.versions.node.split('.')[0]) < 22) die(`the suite needs Node 22 or newer (this is ${process.version})`);
  if (!existsSync(SUITE_BIN)) die(`conformance suite not found at ${SUITE_BIN} (npm install)`);
  if (opts.scenario && !kindOf.has(opts.scenario)) {
    console.error(`conformance: note: '${opts.scenario}' is not in requirements/${REVISION}.yaml (server); running it anyway`);
  }

  if (opts.build) {
    console.log('conformance: npm run build');
    const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) die(`npm run build failed (${r.error ? r.error.message : `exit ${r.status ?? r.signal}`})`, 1);
  }
  if (!process.env.CONFORMANCE_SERVER_CMD && !existsSync(path.join(ROOT, FIXTURE_ENTRY))) {
    die(`${FIXTURE_ENTRY} does not exist${opts.build ? ' after the build' : ' (run without --no-build)'}`, 1);
  }

  const outDir = path.join(RESULTS_ROOT, timestamp());
  mkdirSync(outDir, { recursive: true });

  const port = await freePort();
  const fixture = new Fixture(port, path.join(outDir, 'fixture.log'));
  let suite = null;
  let interrupted = null;

  const onSignal = (sig) => {
    if (interrupted) return;
    interrupted = sig;
    console.error(`\nconformance: ${sig} received, stopping`);
    if (suite && suite.exitCode === null) { try { suite.kill(sig); } catch { /* gone */ } }
    fixture.stop().then(() => process.exit(sig === 'SIGINT' ? 130 : 143));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  let exitCode = 1;
  try {
    console.log(`conformance: starting fixture: ${fixture.describe} (PORT=${port} HOST=127.0.0.1)`);
    const ready = await fixture.waitReady();
    if (!ready.ok) {
      console.error(`conformance: ${ready.why}`);
      const out = tail(fixture.output);
      console.error(out ? `--- fixture output (tail) ---\n${out}\n--- end fixture output ---` : '(fixture printed nothing)');
      return 1;
    }
    console.log(`conformance: fixture ready at ${fixture.url}`);
    const legacyOk = opts.scenario ? true : await runLegacyLeg(fixture, outDir, opts);
    if (interrupted) return 130;

    const args = [SUITE_BIN, 'server', '--url', fixture.url];
    if (opts.scenario) {
      args.push('--scenario', opts.scenario);
      // Extensions (tasks-*, sep-2640-skills-*) are inferred to the 2026 wire; --spec-version would skip them.
      if (kindOf.get(opts.scenario) !== 'extension') args.push('--spec-version', REVISION);
      args.push('--verbose');
    } else {
      args.push('--requirements', REVISION);
    }
    args.push('--timeout', opts.timeout, '-o', outDir, ...opts.extra);
    console.log(`conformance: node ${args.map((a) => path.isAbsolute(a) ? path.relative(ROOT, a) : a).join(' ')}\n`);

    // Stream the suite's output through and keep a copy (for "Failed to run scenario X:" reasons).
    const suiteLog = createWriteStream(path.join(outDir, 'suite.log'));
    const captured = [];
    suite = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const [stream, sink] of [[suite.stdout, process.stdout], [suite.stderr, process.stderr]]) {
      stream.on('data', (d) => { sink.write(d); suiteLog.write(d); captured.push(d.toString()); });
    }
    const suiteExit = await new Promise((resolve) => {
      suite.on('error', (e) => resolve({ code: null, error: e }));
      suite.on('close', (code, signal) => resolve({ code, signal }));
    });
    await new Promise((r) => suiteLog.end(r));
    if (interrupted) return 130;
    if (suiteExit.error) console.error(`conformance: could not run the suite: ${suiteExit.error.message}`);
    const suiteOk = suiteExit.code === 0;
    if (fixture.exited) {
      console.error(`\nconformance: the fixture died during the run (${fmtExit(fixture.exited)}); output tail:\n${tail(fixture.output)}`);
    }

    // ---- evaluate -o output
    const thrown = new Map();
    for (const m of captured.join('').matchAll(/Failed to run scenario (\S+?):\s*([^\n]*)/g)) thrown.set(m[1], m[2]);
    const results = readResults(outDir);
    const ran = opts.scenario ? [opts.scenario] : [...req.scored, ...req.notScored.map((n) => n.scenario)];
    const rows = [];
    let passed = 0;
    let failed = 0;
    const warningLines = [];
    for (const s of ran) {
      const kind = kindOf.get(s) ?? 'unlisted';
      const scored = kind === 'scored';
      const ev = evaluate(s, results.get(s), scored, thrown);
      rows.push({ scenario: s, kind, ...ev });
      for (const w of ev.warnings) warningLines.push(`  ${s}: [${w.id}] ${trim(w.errorMessage || w.description, 160)}`);
      if (scored || opts.scenario) ev.result === 'pass' ? passed++ : failed++;
    }

    if (warningLines.length) {
      console.log(`\nconformance: WARNING checks in scored scenarios (they count as failures in this project):`);
      console.log(warningLines.join('\n'));
    }
    const failedScored = rows.filter((r) => r.kind === 'scored' && r.result === 'fail');
    if (failedScored.length) {
      console.log(`\nconformance: failing scored scenarios:`);
      for (const r of failedScored) console.log(`  ✗ ${r.scenario}: ${r.reason}`);
    }

    if (opts.report) {
      const md = renderReport(rows, { outDir, url: fixture.url, cmd: fixture.describe, passed, failed, suiteExit });
      writeFileSync(path.join(RESULTS_ROOT, 'REPORT.md'), md);
      console.log(`\nconformance: wrote ${path.relative(ROOT, path.join(RESULTS_ROOT, 'REPORT.md'))}\n`);
      console.log(md);
    }

    // The tasks extension, counted on its own (a scenario missing from the run counts as failed).
    let tasksFailed = 0;
    if (!opts.scenario) {
      const taskRows = TASKS_SCENARIOS.map((s) => rows.find((r) => r.scenario === s) ?? { scenario: s, result: 'fail', reason: 'not run' });
      const failedTasks = taskRows.filter((r) => r.result === 'fail');
      tasksFailed = failedTasks.length;
      if (failedTasks.length) {
        console.log(`\nconformance: failing tasks extension scenarios:`);
        for (const r of failedTasks) console.log(`  ✗ ${r.scenario}: ${r.reason}`);
      }
      console.log(`\nconformance tasks: ${taskRows.length - tasksFailed} passed, ${tasksFailed} failed`);
    }

    const skillsOk = opts.scenario ? true : await runSkillsLeg(fixture, outDir, opts);
    if (interrupted) return 130;

    console.log(`\nconformance: results in ${path.relative(ROOT, outDir)} (suite exit ${suiteExit.code ?? suiteExit.signal ?? 'error'})`);
    exitCode = suiteOk && legacyOk && skillsOk && failed === 0 && tasksFailed === 0 && !fixture.exited ? 0 : 1;
    console.log(`conformance: ${passed} passed, ${failed} failed`);
    return exitCode;
  } finally {
    await fixture.stop();
  }
}

/**
 * The 2025-11-25 leg: the suite with its own baseline of expected failures (it exits 1 on an
 * unexpected failure or a stale entry). Prints how many of the scored scenarios pass and whether the rest
 * are all expected failures.
 */
async function runLegacyLeg(fixture, outDir, opts) {
  const legacyDir = path.join(outDir, LEGACY_REVISION);
  const { scored } = readRequirements(path.join(PKG_DIR, `requirements/${LEGACY_REVISION}.yaml`));
  const args = [SUITE_BIN, 'server', '--url', fixture.url, '--requirements', LEGACY_REVISION, '--expected-failures', LEGACY_EXPECTED_FAILURES, '--timeout', opts.timeout, '-o', legacyDir];
  console.log(`conformance: node ${args.map((a) => (path.isAbsolute(a) ? path.relative(ROOT, a) : a)).join(' ')}\n`);
  const log = createWriteStream(path.join(outDir, `suite-${LEGACY_REVISION}.log`));
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const [stream, sink] of [[child.stdout, process.stdout], [child.stderr, process.stderr]]) {
    stream.on('data', (d) => { sink.write(d); log.write(d); });
  }
  const code = await new Promise((resolve) => {
    child.on('error', () => resolve(null));
    child.on('close', (c) => resolve(c));
  });
  await new Promise((r) => log.end(r));
  const results = readResults(legacyDir);
  let passed = 0;
  for (const s of scored) if (evaluate(s, results.get(s), false, new Map()).result === 'pass') passed++;
  const baseline = path.relative(ROOT, LEGACY_EXPECTED_FAILURES);
  const rest = code === 0
    ? passed === scored.length
      ? `no expected failures are listed in ${baseline}`
      : `the other ${scored.length - passed} are the expected failures listed in ${baseline}`
    : `the suite found failures outside ${baseline} (exit ${code}): see above`;
  console.log(`\nconformance ${LEGACY_REVISION}: ${passed} of ${scored.length} scored scenarios pass; ${rest}\n`);
  return code === 0;
}

/**
 * The skills extension leg: each scenario on its own (`--scenario`, no `--spec-version`: extension
 * scenarios are not on the spec timeline). A FAILURE check or a scenario that did not run fails it.
 */
async function runSkillsLeg(fixture, outDir, opts) {
  const skillsDir = path.join(outDir, 'skills');
  const log = createWriteStream(path.join(outDir, 'suite-skills.log'));
  for (const scenario of SKILLS_SCENARIOS) {
    const args = [SUITE_BIN, 'server', '--url', fixture.url, '--scenario', scenario, '--timeout', opts.timeout, '-o', skillsDir];
    console.log(`conformance: node ${args.map((a) => (path.isAbsolute(a) ? path.relative(ROOT, a) : a)).join(' ')}`);
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const stream of [child.stdout, child.stderr]) stream.on('data', (d) => log.write(d));
    await new Promise((resolve) => {
      child.on('error', resolve);
      child.on('close', resolve);
    });
  }
  await new Promise((r) => log.end(r));
  const results = readResults(skillsDir);
  const failing = [];
  for (const scenario of SKILLS_SCENARIOS) {
    const ev = evaluate(scenario, results.get(scenario), false, new Map());
    if (ev.result === 'fail') failing.push(`  ✗ ${scenario}: ${ev.reason}`);
  }
  if (failing.length) console.log(`\nconformance: failing skills extension scenarios:\n${failing.join('\n')}`);
  console.log(`\nconformance skills: ${SKILLS_SCENARIOS.length - failing.length} passed, ${failing.length} failed`);
  return failing.length === 0;
}

function renderReport(rows, info) {
  const scope = rows.length === 1 ? `scenario \`${rows[0].scenario}\`` : `requirements ${REVISION}`;
  const pkg = JSON.parse(readFileSync(path.join(PKG_DIR, 'package.json'), 'utf8'));
  const lines = [
    `# Conformance report (${scope})`,
    '',
    `- suite: \`${pkg.name}@${pkg.version}\`, ${new Date().toISOString()}`,
    `- fixture: \`${info.cmd}\` at ${info.url}`,
    `- results: \`${path.relative(ROOT, info.outDir)}\``,
    `- scored: ${info.passed} passed, ${info.failed} failed (a WARNING in a scored scenario counts as a failure; pending/extension never count)`,
    '',
    '| scenario | kind | result | reason |',
    '|---|---|---|---|',
  ];
  for (const r of rows) {
    lines.push(`| ${mdCell(r.scenario)} | ${mdCell(r.kind)} | ${r.result} | ${mdCell(r.result === 'fail' && /^scenario did not run/.test(r.reason) ? `fail: ${r.reason}` : r.reason)} |`);
  }
  return `${lines.join('\n')}\n`;
}

main().then(
  (code) => process.exit(code),
  (err) => { console.error(`conformance: ${err?.stack || err}`); process.exit(1); },
);
