#!/usr/bin/env node
// Installs the package the way users do and proves it works in both module systems:
//   1. `npm pack` → a tarball that must carry the compiled library (dist/lib) and nothing that refers to
//      files it lacks;
//   2. two scratch Nest apps, one ESM (`"type": "module"`, the default `nest new`) and one CommonJS
//      (Node's require(esm)), each installs the tarball (npm adds the peer dependencies), compiles a tool
//      with the repository's TypeScript under `module: nodenext`, boots on a free loopback port,
//      answers a `tools/call` over HTTP and serves the playground page with its files;
//   3. the same two apps installed from a git URL (`git+file://` of this checkout's HEAD), which makes
//      npm run the package's `prepare` build, as `npm install github:owner/repo` does;
//   4. a fresh app scaffolded by the Nest CLI (`nest new`: ESM, vitest) installs the tarball, takes the
//      "Testing your tools" example of docs/guide/testing.md verbatim, and passes it under vitest, then jest;
//   5. a CommonJS app scaffolded as docs/guide/install.md says (the Nest schematic with `--type=cjs`)
//      installs the tarball with the peers the README's install line names, takes the README's tool and
//      module and the guide's Fastify main.ts verbatim (`<!-- install-check: PATH -->` blocks), compiles
//      with `nest build`, boots and answers a tools/call;
//   6. the tarball installed from an http:// URL, as a release asset is (a loopback server stands in for
//      GitHub); each install says how long it took.
//
//   npm run test:install            node scripts/install-check.mjs [--skip-git] [--skip-fresh-app]
//
// The last line is `install-check: N passed, M failed`; the exit code is 0 only when all passed.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const NEST_CLI = path.join(ROOT, 'node_modules/@nestjs/cli/bin/nest.js');
const SCHEMATICS = path.join(ROOT, 'node_modules/@angular-devkit/schematics-cli/bin/schematics.js');
const skipGit = process.argv.includes('--skip-git');
const skipFreshApp = process.argv.includes('--skip-fresh-app');

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
  for (const required of ['dist/lib/index.js', 'dist/lib/index.d.ts', 'dist/lib/testing/index.js', 'dist/lib/testing/index.d.ts', 'package.json', 'README.md', 'LICENSE']) {
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
const APP_MODULE_SOURCE = `import { Injectable, Module } from '@nestjs/common';
import { McpArg, McpModule, McpTool, text, type McpToolResult } from 'nest-mcp';

@Injectable()
class MathTools {
  @McpTool({ name: 'add', description: 'Adds two numbers' })
  add(@McpArg('a') a: number, @McpArg('b') b: number): McpToolResult {
    return { content: [text(\`sum=\${a + b} (\${typeof require === 'function' ? 'commonjs' : 'esm'})\`)] };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'install-check', version: '1.0.0' })], providers: [MathTools] })
export class AppModule {}
`;

const MAIN_SOURCE = `import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: ['error'] });
  app.enableShutdownHooks();
  await app.listen(0, '127.0.0.1');
  console.log(\`listening \${await app.getUrl()}\`);
}
void main();
`;

// The second entry point, nest-mcp/testing, from the same installed package: boots the module, calls `add`.
const KIT_SOURCE = `import 'reflect-metadata';
import { McpTest } from 'nest-mcp/testing';
import { AppModule } from './app.module.js';

async function main(): Promise<void> {
  const client = await McpTest.createClient(AppModule, { logger: ['error'] });
  const result = await client.callTool('add', { a: 2, b: 40 });
  await client.close();
  console.log(\`kit \${JSON.stringify(result.content)}\`);
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
  writeFileSync(path.join(dir, 'src/app.module.ts'), APP_MODULE_SOURCE);
  writeFileSync(path.join(dir, 'src/main.ts'), MAIN_SOURCE);
  writeFileSync(path.join(dir, 'src/kit.ts'), KIT_SOURCE);
}

function install(dir, fromTarball, label) {
  const started = Date.now();
  const { output } = run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
  console.log(`     npm install from the ${label} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const lines = output.split('\n');
  const badEngine = lines.filter((line) => line.includes('EBADENGINE'));
  if (badEngine.length > 0) throw new Error(`npm install warned about engines:\n${badEngine.slice(0, 6).join('\n')}`);
  // A git dependency runs `prepare` by design; a tarball must bring no install script at all.
  const scriptWarnings = lines.filter((line) => line.includes('nest-mcp') && line.includes('install-scripts'));
  if (fromTarball && scriptWarnings.length > 0) throw new Error(`npm install warned about scripts:\n${scriptWarnings.join('\n')}`);
  run(process.execPath, [TSC, '-p', 'tsconfig.json'], dir);
}

/** Boots the compiled app, calls `add` over HTTP, stops the app. */
async function bootAndCall(dir, kind, { entry = 'dist/main.js', env = {}, tool = 'add', args = { a: 2, b: 40 }, expect = `sum=42 (${kind === 'esm' ? 'esm' : 'commonjs'})`, playground = true } = {}) {
  const child = spawn(process.execPath, [entry], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  try {
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the app did not start within 20 s:\n${output}`)), 20_000);
      child.stdout.on('data', () => {
        const match = /(?:listening|MCP endpoint:) (http:\/\/\S+?)(?:\/mcp)?\s/.exec(output);
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
        'mcp-name': tool,
      },
      body: JSON.stringify({
        jsonrpc: '2.0', id: 1, method: 'tools/call',
        params: {
          name: tool, arguments: args,
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} },
        },
      }),
    });
    const body = await response.json();
    const text = body?.result?.content?.[0]?.text;
    if (response.status !== 200 || text !== expect) {
      throw new Error(`unexpected answer ${response.status}: ${JSON.stringify(body)}`);
    }
    // The playground's files ship in dist/lib too (NODE_ENV is not production here).
    for (const file of playground ? ['', '/playground.js', '/playground.css'] : []) {
      const asset = await fetch(`${url}/mcp/playground${file}`);
      if (asset.status !== 200 || (await asset.text()).length === 0) throw new Error(`the playground${file} answered ${asset.status}`);
    }
  } finally {
    child.kill('SIGTERM');
  }
}

// ------------------------------------------------------------------ fresh scaffolds and the docs' blocks
const TESTING_GUIDE = 'docs/guide/testing.md';

/** The code blocks of a documentation page marked `<!-- MARKER: PATH -->`, by that path. */
function markedBlocks(page, marker, atLeast) {
  const text = readFileSync(path.join(ROOT, page), 'utf8');
  const blocks = new Map();
  for (const match of text.matchAll(new RegExp(`<!-- ${marker}: (\\S+) -->\\r?\\n\`\`\`\\w*\\r?\\n([\\s\\S]*?)\\r?\\n\`\`\``, 'g'))) blocks.set(match[1], `${match[2]}\n`);
  if (blocks.size < atLeast) throw new Error(`${page} has fewer than ${atLeast} blocks marked <!-- ${marker}: PATH -->`);
  return blocks;
}

/** The testing guide's example, marked `<!-- testing-example: PATH -->`, by that path. */
function readmeTestingExamples() {
  return markedBlocks(TESTING_GUIDE, 'testing-example', 2);
}

/** The jest configuration the testing guide gives (its ```json block that starts with "jest"). */
function readmeJestConfig() {
  const guide = readFileSync(path.join(ROOT, TESTING_GUIDE), 'utf8');
  const block = /```json\r?\n("jest": \{[\s\S]*?\r?\n\})\r?\n```/.exec(guide);
  if (!block) throw new Error(`${TESTING_GUIDE} has no jest configuration block`);
  return JSON.parse(`{${block[1]}}`).jest;
}

/** The peers the README's install line names (the words after the tarball URL). */
function readmePeers() {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const line = /npm install https:\/\/\S+\.tgz \\\r?\n\s+([^\n]+)/.exec(readme);
  if (!line) throw new Error('README.md has no install line with a release tarball and peers');
  return line[1].trim().split(/\s+/);
}

/**
 * The CommonJS recipe of docs/guide/install.md: the Nest application schematic with `--type=cjs` (the
 * repository's own schematics, as `npx -p @angular-devkit/schematics-cli -p @nestjs/schematics` runs them),
 * the tarball and the README's peers, the README's tool and module and the guide's Fastify main.ts.
 */
async function commonJsRecipe(tarball) {
  const dir = path.join(work, 'cjs-recipe');
  run(process.execPath, [SCHEMATICS, '@nestjs/schematics:application', '--name=cjs-recipe', '--type=cjs', '--no-interactive'], work);
  const scaffold = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  if (scaffold.type !== undefined && scaffold.type !== 'commonjs') throw new Error(`the cjs schematic scaffolded "type": "${scaffold.type}"`);
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], dir);
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `nest-mcp@file:${tarball}`, ...readmePeers(), `@nestjs/platform-fastify@${manifest.devDependencies['@nestjs/platform-fastify']}`], dir);
  const declared = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).dependencies;
  for (const peer of ['@nestjs/config', 'class-validator', 'class-transformer', '@opentelemetry/api']) {
    if (!declared[peer]) throw new Error(`the install line did not declare ${peer}`);
  }
  const files = new Map([...markedBlocks('README.md', 'install-check', 2), ...markedBlocks('docs/guide/install.md', 'install-check', 1)]);
  for (const [file, source] of files) writeFileSync(path.join(dir, file), source);
  run(process.execPath, ['node_modules/@nestjs/cli/bin/nest.js', 'build'], dir);
  const main = ['dist/main.js', 'dist/src/main.js'].find((file) => existsSync(path.join(dir, file)));
  if (!main) throw new Error('nest build wrote no dist/main.js');
  await bootAndCall(dir, 'commonjs', { entry: main, env: { PORT: '0' }, tool: 'hello', args: { name: 'Ada' }, expect: 'Hello, Ada!', playground: false });
}

/** Serves the tarball on a loopback port from a child process (npm install blocks this one), as a release URL. */
async function serveTarball(tarball) {
  const server = spawn(process.execPath, ['-e', `
    const { createServer } = require('node:http'); const { readFileSync } = require('node:fs');
    const body = readFileSync(${JSON.stringify(tarball)});
    createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length }); res.end(body); })
      .listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => { const match = /port (\d+)/.exec(String(chunk)); if (match) resolve(match[1]); });
    server.on('exit', (code) => reject(new Error(`the tarball server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/${path.basename(tarball)}`, stop: () => server.kill('SIGTERM') };
}

/**
 * Scaffolds an app with the Nest CLI (the repository's pinned one, as `npx @nestjs/cli new` would),
 * installs the tarball, copies the testing guide's example into it verbatim, type-checks it and runs
 * `vitest run` as the scaffold's `npm test` does; then the same spec under jest with the guide's jest
 * configuration (ESM mode), the jest packages added as a jest user has them.
 */
function freshNestApp(tarball) {
  const dir = path.join(work, 'fresh-app');
  run(process.execPath, [NEST_CLI, 'new', 'fresh-app', '--package-manager', 'npm', '--skip-git'], work);
  const scaffold = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
  if (scaffold.type !== 'module' || scaffold.scripts?.test !== 'vitest run') {
    throw new Error(`nest new no longer scaffolds an ES module app tested by vitest: type ${scaffold.type}, test ${scaffold.scripts?.test}`);
  }
  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', `nest-mcp@file:${tarball}`], dir);
  const examples = readmeTestingExamples();
  for (const [file, source] of examples) writeFileSync(path.join(dir, file), source);
  const spec = [...examples.keys()].find((file) => file.endsWith('.spec.ts'));
  run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.json'], dir);
  const vitest = run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--reporter=verbose'], dir).output;
  if (!vitest.includes(spec) || /\bfailed\b/.test(vitest)) throw new Error(`vitest did not pass ${spec}:\n${vitest}`);

  run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--no-save', `jest@${manifest.devDependencies.jest}`, `ts-jest@${manifest.devDependencies['ts-jest']}`, '@types/jest@^30'], dir);
  // A jest app's tsconfig names jest's global types where the vitest scaffold names vitest's.
  writeFileSync(path.join(dir, 'tsconfig.jest.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { types: ['jest', 'node'] } }));
  const jestConfig = readmeJestConfig();
  jestConfig.transform['^.+\\.ts$'][1].tsconfig = 'tsconfig.jest.json';
  writeFileSync(path.join(dir, 'jest.config.json'), JSON.stringify({ ...jestConfig, roots: ['<rootDir>/src'], testRegex: `${path.basename(spec).replace(/\./g, '\\.')}$` }));
  const jest = run(process.execPath, ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '--config', 'jest.config.json'], dir).output;
  if (!/Tests:\s+\d+ passed, \d+ total/.test(jest) || /failed/.test(jest)) throw new Error(`jest did not pass ${spec}:\n${jest}`);
}

/** Runs the compiled nest-mcp/testing script: the kit imports (ESM or require(esm)) and calls `add`. */
function callThroughKit(dir, kind) {
  const { stdout } = run(process.execPath, ['dist/kit.js'], dir);
  const expected = `kit ${JSON.stringify([{ type: 'text', text: `sum=42 (${kind})` }])}`;
  if (stdout.trim() !== expected) throw new Error(`nest-mcp/testing answered ${stdout.trim()}, expected ${expected}`);
}

async function main() {
  let tarball;
  await check('npm pack carries dist/lib, LICENSE, self-contained source maps and no scripts', () => { tarball = pack(); });
  const served = tarball ? await serveTarball(tarball) : undefined;
  const sources = tarball ? [['tarball', `file:${tarball}`], ['release URL', served.url]] : [];
  if (!skipGit) sources.push(['git URL', `git+file://${ROOT}`]);
  for (const [label, dependency] of sources) {
    for (const kind of ['esm', 'commonjs']) {
      const dir = path.join(work, `${label.replace(/\W/g, '-')}-${kind}`);
      await check(`${kind} app, installed from the ${label}: types compile, boots, answers tools/call, serves the playground, and nest-mcp/testing calls it`, async () => {
        writeApp(dir, kind, dependency);
        install(dir, label !== 'git URL', label);
        await bootAndCall(dir, kind);
        callThroughKit(dir, kind);
      });
    }
  }
  served?.stop();
  if (tarball && !skipFreshApp) {
    await check("a fresh `nest new` app (ESM, vitest) with the tarball runs the testing guide's example under vitest and jest", () => freshNestApp(tarball));
    await check("the CommonJS recipe: a cjs scaffold with the tarball and the README's peers builds the README's tool with the Fastify main.ts, boots and answers", () => commonJsRecipe(tarball));
  }
  rmSync(work, { recursive: true, force: true });
  const failed = results.filter((result) => !result.ok).length;
  console.log(`install-check: ${results.length - failed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

await main();
