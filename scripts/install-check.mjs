#!/usr/bin/env node
// Installs the package the way users do and proves it works in both module systems:
//   1. `npm pack` → a tarball that must carry the compiled library (dist/lib) and nothing that refers to
//      files it lacks;
//   2. two scratch Nest apps, one ESM (`"type": "module"`, the default `nest new`) and one CommonJS
//      (Node's require(esm)), each installs the tarball (npm adds the peer dependencies), compiles a tool
//      with the repository's TypeScript under `module: nodenext`, boots on a free loopback port,
//      answers a `tools/call` over HTTP and serves the playground page with its files;
//   3. the same two apps installed from a git URL (`git+file://` of this checkout's HEAD), which makes
//      npm run the package's `prepare` build, as `npm install github:owner/repo` does.
//
//   npm run test:install            node scripts/install-check.mjs [--skip-git]
//
// The last line is `install-check: N passed, M failed`; the exit code is 0 only when all passed.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const skipGit = process.argv.includes('--skip-git');

const results = [];
const work = mkdtempSync(path.join(tmpdir(), 'nest-mcp-install-'));

function run(command, args, cwd) {
  const done = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  const output = `${done.stdout}${done.stderr}`;
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${output}`);
  return { stdout: done.stdout, output };
}

async function check(name, body) {
  const started = Date.now();
  try {
    await body();
    results.push({ name, ok: true });
    console.log(`ok   ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    results.push({ name, ok: false });
    console.log(`FAIL ${name}: ${error instanceof Error ? error.message : error}`);
  }
}

// ------------------------------------------------------------------ the tarball
function pack() {
  const manifestBefore = readFileSync(path.join(ROOT, 'package.json'), 'utf8');  // `npm pack` runs `prepare` (the build) first; its log precedes the JSON listing on stdout.
  const { stdout } = run('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  const listing = JSON.parse(stdout.slice(stdout.search(/^\[/m)));
  const files = listing[0].files.map((file) => file.path);
  for (const required of ['dist/lib/index.js', 'dist/lib/index.d.ts', 'package.json', 'README.md', 'LICENSE']) {
    if (!files.includes(required)) throw new Error(`the tarball lacks ${required}`);
  }
  const strays = files.filter((file) => !/^(dist\/lib\/|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/.test(file));
  if (strays.length > 0) throw new Error(`the tarball carries files outside dist/lib: ${strays.join(', ')}`);
  const sourceMapsPointingOut = files.filter((file) => file.endsWith('.js.map')).filter((file) => {
    const map = JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
    return !Array.isArray(map.sourcesContent) || map.sourcesContent.length !== map.sources.length;
  });
  if (sourceMapsPointingOut.length > 0) throw new Error(`source maps without their sources: ${sourceMapsPointingOut[0]} …`);
  const tarball = path.join(work, listing[0].filename);
  const packedManifest = JSON.parse(execFileSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' }));
  if (packedManifest.scripts !== undefined) throw new Error(`the packed package.json has scripts: ${Object.keys(packedManifest.scripts).join(', ')}`);
  if (readFileSync(path.join(ROOT, 'package.json'), 'utf8') !== manifestBefore) throw new Error('postpack did not restore package.json');
  return tarball;
}

// ------------------------------------------------------------------ the scratch apps
const APP_SOURCE = `import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpArg, McpModule, McpTool, text, type McpToolResult } from 'nest-mcp';

@Injectable()
class MathTools {
  @McpTool({ name: 'add', description: 'Adds two numbers' })
  add(@McpArg('a') a: number, @McpArg('b') b: number): McpToolResult {
    return { content: [text(\`sum=\${a + b} (\${typeof require === 'function' ? 'commonjs' : 'esm'})\`)] };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'install-check', version: '1.0.0' })], providers: [MathTools] })
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  app.enableShutdownHooks();
  await app.listen(0, '127.0.0.1');
  console.log(\`listening \${await app.getUrl()}\`);
}
void main();
`;

function writeApp(dir, kind, dependency) {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  const app = {
    name: `install-check-${kind}`,
    private: true,
    ...(kind === 'esm' ? { type: 'module' } : { type: 'commonjs' }),
    dependencies: {
      'nest-mcp': dependency,
      // Optional peer: the app chooses its HTTP adapter.
      '@nestjs/platform-express': manifest.devDependencies['@nestjs/platform-express'],
    },
  };
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify(app, null, 2));
  // The tsconfig of `nest new` (both templates use nodenext; the package.json "type" picks the module system).
  const tsconfig = {
    compilerOptions: {
      module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2023', strict: true, skipLibCheck: false,
      experimentalDecorators: true, emitDecoratorMetadata: true, outDir: 'dist', rootDir: 'src', types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules/@types')],
    },
    include: ['src'],
  };
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  writeFileSync(path.join(dir, 'src/main.ts'), APP_SOURCE);
}

function install(dir, fromTarball) {
  const { output } = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
  const lines = output.split('\n');
  const badEngine = lines.filter((line) => line.includes('EBADENGINE'));
  if (badEngine.length > 0) throw new Error(`npm install warned about engines:\n${badEngine.slice(0, 6).join('\n')}`);
  // A git dependency runs `prepare` by design; a tarball must bring no install script at all.
  const scriptWarnings = lines.filter((line) => line.includes('nest-mcp') && line.includes('install-scripts'));
  if (fromTarball && scriptWarnings.length > 0) throw new Error(`npm install warned about scripts:\n${scriptWarnings.join('\n')}`);
  run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
}

/** Boots the compiled app, calls `add` over HTTP, stops the app. */
async function bootAndCall(dir, kind) {
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the app did not start within 20 s:\n${output}`)), 20_000);
      child.stdout.on('data', () => {
        const match = /listening (http:\/\/\S+)/.exec(output);
        if (match) { clearTimeout(timer); resolve(match[1].replace('[::1]', '127.0.0.1')); }
      });
      child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`the app exited with ${code}:\n${output}`)); });
    });
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'add',
      },
      body: JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'tools/call',
        params: {
          name: 'add', arguments: { a: 2, b: 40 },
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    });
    const body = await response.json();
    const text = body?.result?.content?.[0]?.text;
    if (response.status !== 200 || text !== `sum=42 (${kind === 'esm' ? 'esm' : 'commonjs'})`) {
      throw new Error(`unexpected answer ${response.status}: ${JSON.stringify(body)}`);
    }
    // The playground's files ship in dist/lib too (NODE_ENV is not production here).
    for (const file of ['', '/playground.js', '/playground.css']) {
      const asset = await fetch(`${url}/mcp/playground${file}`);
      if (asset.status !== 200 || (await asset.text()).length === 0) throw new Error(`the playground${file} answered ${asset.status}`);
    }
  } finally {
    child.kill('SIGTERM');
  }
}

async function main() {
  let tarball;
  await check('npm pack carries dist/lib, LICENSE, self-contained source maps and no scripts', () => { tarball = pack(); });
  const sources = tarball ? [['tarball', `file:${tarball}`]] : [];
  if (!skipGit) sources.push(['git URL', `git+file://${ROOT}`]);
  for (const [label, dependency] of sources) {
    for (const kind of ['esm', 'commonjs']) {
      const dir = path.join(work, `${label.replace(/\W/g, '-')}-${kind}`);
      await check(`${kind} app, installed from the ${label}: types compile, boots, answers tools/call, serves the playground`, async () => {
        writeApp(dir, kind, dependency);
        install(dir, label === 'tarball');
        await bootAndCall(dir, kind);
      });
    }
  }
  rmSync(work, { recursive: true, force: true });
  const failed = results.filter((result) => !result.ok).length;
  console.log(`install-check: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

await main();
