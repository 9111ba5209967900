/// <reference lib="dom" />
// The page's "copy as" snippets, each run for real: the curl commands with curl, the client code with the
// official client under node, the test with jest. The callbacks of page.$eval run in the page (DOM types).
import 'reflect-metadata';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'puppeteer-core';
import { HttpAppModule } from '../sample/http-app.module.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { describeWithChromium } from './support/browser.js';
import { findBinary } from './support/local-services.js';
import type { StartedApp } from './support/mcp-http.js';
import { finished, open, openPlayground, switchEra, upgradePlan, type OpenPlayground } from './support/playground-page.js';

const run = promisify(execFile);

/** Opens a tool, types its arguments into the form, calls it and waits for the run to end. */
async function callTool(page: Page, tool: string, args: Record<string, string>): Promise<string> {
  await open(page, 'tools', tool);
  for (const [name, value] of Object.entries(args)) await page.type(`#detail input[name="${name}"]`, value);
  await page.click('#detail form button[type="submit"]');
  return (await finished(page)).state;
}

/** Clicks a "copy as" button and returns the snippet the page shows (and puts on the clipboard). */
async function copy(page: Page, kind: string): Promise<string> {
  await page.click(`#detail .copy button[data-copy="${kind}"]`);
  await page.waitForSelector(`#detail pre.snippet[data-kind="${kind}"]`);
  return page.$eval('#detail pre.snippet', (node) => node.textContent!);
}

/** The JSON-RPC messages of an answer: one JSON body, or the `data:` lines of an SSE stream. */
function messagesOf(output: string): Array<Record<string, any>> {
  const data = output.split(/\r?\n/).filter((line) => line.startsWith('data:'));
  if (data.length === 0) return output.trim() ? [JSON.parse(output)] : [];
  return data.map((line) => JSON.parse(line.slice(5)));
}

/** What the app was sent: each request's HTTP method and MCP headers (those present). */
interface SeenRequest {
  method?: string;
  version?: string;
  mcpMethod?: string;
  session?: string;
}

describeWithChromium('the playground copies the current call as code that runs', () => {
  let playground: OpenPlayground;
  let started: StartedApp;
  let page: Page;
  // Inside the repository, so the snippets resolve its node_modules (nest-mcp, the official client, jest).
  const scratch = mkdtempSync(join(process.cwd(), 'playground-snippets-'));

  beforeAll(async () => {
    playground = await openPlayground([HttpAppModule]);
    ({ started, page } = playground);
  }, 60_000);

  /** Runs copied client code under node; returns what it printed and the requests it sent to the app. */
  async function runClientCode(code: string): Promise<{ result: unknown; requests: SeenRequest[] }> {
    const file = join(scratch, 'client.mjs');
    writeFileSync(file, code);
    const requests: SeenRequest[] = [];
    const server = started.app.getHttpServer() as Server;
    // Only the snippet's requests: the browser's (the page is idle meanwhile) would say HeadlessChrome.
    const seen = (request: IncomingMessage) => {
      if ((request.headers['user-agent'] ?? '').includes('HeadlessChrome')) return;
      const { 'mcp-protocol-version': version, 'mcp-method': mcpMethod, 'mcp-session-id': session } = request.headers;
      const fields = { method: request.method, version, mcpMethod, session };
      requests.push(Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as SeenRequest);
    };
    server.on('request', seen);
    try {
      const { stdout } = await run(process.execPath, [file]);
      return { result: JSON.parse(stdout), requests };
    } finally {
      server.off('request', seen);
    }
  }

  afterAll(async () => {
    await playground?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('copies hello as a 2026-07-28 curl command that curl runs against the server', async () => {
    expect(findBinary('curl')).toBeDefined();
    expect(await callTool(page, 'hello', { name: 'Ada' })).toBe('done');
    const command = await copy(page, 'curl');
    expect(command).toContain("-H 'MCP-Protocol-Version: 2026-07-28'");
    expect(command).toContain("-H 'Mcp-Name: hello'");
    expect(command).toContain('"io.modelcontextprotocol/protocolVersion":"2026-07-28"');
    const { stdout } = await run('bash', ['-c', command]);
    const [answer] = messagesOf(stdout).filter((message) => message.id !== undefined);
    expect(answer.result).toMatchObject({ resultType: 'complete', structuredContent: { message: 'Hello, Ada!' } });
  });

  it('copies hello as 2025-11-25 curl commands: initialize, the session id, notifications/initialized, the call', async () => {
    const script = await copy(page, 'curl-2025');
    expect(script).toContain('"method":"initialize"');
    expect(script).toContain('-H "Mcp-Session-Id: $SESSION"');
    expect(script).not.toContain('io.modelcontextprotocol/protocolVersion');
    // `set -e` and a check of the session id: a failed step fails the script.
    const { stdout } = await run('bash', ['-c', `set -euo pipefail\n${script.replace("//Ip')", "//Ip')\ntest -n \"$SESSION\"")}`]);
    const [answer] = messagesOf(stdout).filter((message) => message.id === 2);
    expect(answer.result.structuredContent).toEqual({ message: 'Hello, Ada!' });
  });

  it('copies hello as official client 2.x code pinned to 2026-07-28, which node runs in that era', async () => {
    const code = await copy(page, 'client');
    expect(code).toContain("from '@modelcontextprotocol/client'");
    expect(code).toContain("versionNegotiation: { mode: { pin: '2026-07-28' } }");
    const { result, requests } = await runClientCode(code);
    expect(result).toMatchObject({ structuredContent: { message: 'Hello, Ada!' }, content: [{ type: 'text', text: '{"message":"Hello, Ada!"}' }] });
    // Each request self-contained at 2026-07-28: server/discover, then the call; no session.
    expect(requests).toEqual([
      { method: 'POST', version: '2026-07-28', mcpMethod: 'server/discover' },
      { method: 'POST', version: '2026-07-28', mcpMethod: 'tools/call' },
    ]);
  });

  it('copies calls as nest-mcp/testing tests that jest runs: hello, and upgrade-plan over a 2025 session with the answers given', async () => {
    writeFileSync(join(scratch, 'hello.e2e-spec.ts'), await copy(page, 'test'));
    await switchEra(page, 'legacy');
    expect((await upgradePlan(page, 'user-9', 'pro')).state).toBe('done');
    const upgrade = await copy(page, 'test');
    expect(upgrade).toContain("McpTest.createClient(AppModule, { era: 'legacy' })");
    expect(upgrade).toContain('answer: [{"action":"accept","content":{"plan":"pro"}},{"action":"accept","content":{"confirmed":true}}]');
    expect(upgrade).toContain('expect(result.structuredContent).toEqual({"upgraded":true,"plan":"pro"});');
    writeFileSync(join(scratch, 'upgrade.e2e-spec.ts'), upgrade);
    // The app the snippets import as `./app.module.js`: the sample's.
    writeFileSync(join(scratch, 'app.module.ts'), "export { HttpAppModule as AppModule } from '../sample/http-app.module.js';\n");
    const env = { ...process.env };
    delete env.JEST_WORKER_ID;
    const jest = await run(process.execPath, ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '--ci', '--roots', scratch], { env }).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(jest.stderr).toContain('Tests:       2 passed, 2 total');
    // The page's own run charged the user on this app (the jest run booted an app of its own).
    expect(started.app.get(BillingService).charges).toEqual([{ userId: 'user-9', plan: 'pro' }]);
  }, 120_000);

  it('copies hello in the 2025-11-25 era as client 2.x code in its 2025 mode, which node runs in a session', async () => {
    await switchEra(page, 'legacy');
    expect(await callTool(page, 'hello', { name: 'Ada' })).toBe('done');
    const code = await copy(page, 'client');
    expect(code).toContain("versionNegotiation: { mode: 'legacy' }");
    const { result, requests } = await runClientCode(code);
    expect(result).toMatchObject({ structuredContent: { message: 'Hello, Ada!' } });
    // initialize (no version header yet), then everything in the session it opened, at 2025-11-25.
    const [initialize, ...inSession] = requests;
    expect(initialize).toEqual({ method: 'POST' });
    expect(inSession.length).toBeGreaterThanOrEqual(2);
    const session = inSession[0].session;
    expect(session).toEqual(expect.any(String));
    expect(inSession).toEqual(inSession.map(({ method }) => ({ method, version: '2025-11-25', session })));
  });
});
