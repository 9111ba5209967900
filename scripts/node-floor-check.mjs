// CI: the sample, started on a Node.js older than the floor, must stop at once with one line that names
// the floor and the running version, no stack, and a non-zero exit code (issue 32 §2).
//   node scripts/node-floor-check.mjs /path/to/old/node      (after `npm run build`)
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const oldNode = process.argv[2];
if (!oldNode) throw new Error('usage: node scripts/node-floor-check.mjs /path/to/old/node');
/** Not a speed bound: only what "it hangs" means, so that a hang fails instead of blocking CI. */
const HANG_MS = 60_000;

const version = await run(oldNode, ['--version'], ROOT).then((outcome) => outcome.stdout.trim().replace(/^v/, ''));
const cwd = mkdtempSync(path.join(tmpdir(), 'nest-mcp-floor-'));
let failed = false;
try {
  for (const entry of ['dist/sample/main-stdio.js', 'dist/sample/main.js']) {
    const outcome = await run(oldNode, [path.join(ROOT, entry)], cwd, { PORT: '0' });
    const lines = outcome.stderr.split('\n').filter((line) => line.trim() !== '');
    const expected = `nest-mcp needs Node.js 22.12.0 or newer; this is Node.js ${version}. Install a current Node.js LTS.`;
    const ok = outcome.code !== 0 && outcome.code !== null && lines.length === 1 && lines[0] === expected && outcome.stdout === '';
    console.log(`${ok ? 'ok' : 'FAILED'}: ${entry} on Node ${version}: exit ${outcome.code} after ${outcome.ms} ms; stderr ${JSON.stringify(outcome.stderr)}`);
    failed ||= !ok;
  }
} finally {
  rmSync(cwd, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

function run(command, args, cwd, env = {}) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const hang = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    child.on('close', (code) => {
      clearTimeout(hang);
      resolve({ code, stdout, stderr, ms: Math.round(performance.now() - started) });
    });
  });
}
