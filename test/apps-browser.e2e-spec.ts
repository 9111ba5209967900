import 'reflect-metadata';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppModule } from '../sample/app.module.js';
import { describeWithChromium, launchChromium, type HeadlessBrowser } from './support/browser.js';
import { startApp, type StartedApp } from './support/mcp-http.js';

/** JSON for an inline <script>: no `</script>` or `<!--` can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/**
 * The host half of MCP Apps, as small as the test needs: the app's HTML in a sandboxed iframe
 * (`allow-scripts` only: an opaque origin, no same-origin access), answering the View's
 * `ui/initialize`, then sending the tool's arguments and its CallToolResult
 * (`ui/notifications/tool-input`, `ui/notifications/tool-result`) once the View says it is initialized.
 */
function hostPage(appHtml: string, toolArguments: unknown, toolResult: unknown): string {
  return `<!DOCTYPE html>
<html><head><title>test host</title></head>
<body>
<iframe id="app" sandbox="allow-scripts" title="MCP App"></iframe>
<script>
  const APP_HTML = ${scriptJson(appHtml)};
  const TOOL_ARGUMENTS = ${scriptJson(toolArguments)};
  const TOOL_RESULT = ${scriptJson(toolResult)};
  const frame = document.getElementById('app');
  window.received = [];
  const toApp = (message) => frame.contentWindow.postMessage({ jsonrpc: '2.0', ...message }, '*');
  window.addEventListener('message', (event) => {
    if (event.source !== frame.contentWindow) return;
    const message = event.data;
    window.received.push(message.method);
    if (message.method === 'ui/initialize') {
      toApp({ id: message.id, result: { protocolVersion: '2026-01-26', hostInfo: { name: 'test-host', version: '1.0.0' }, hostCapabilities: {}, hostContext: {} } });
    } else if (message.method === 'ui/notifications/initialized') {
      toApp({ method: 'ui/notifications/tool-input', params: { arguments: TOOL_ARGUMENTS } });
      toApp({ method: 'ui/notifications/tool-result', params: TOOL_RESULT });
    }
  });
  frame.srcdoc = APP_HTML;
</script>
</body></html>`;
}

describeWithChromium('MCP Apps in a browser: the sample forecast app renders its tool result in a sandboxed iframe', () => {
  let started: StartedApp;
  let host: Server;
  let hostUrl: string;
  let chromium: HeadlessBrowser;
  let toolResult: { content: unknown[]; structuredContent: { city: string; days: { day: string; sky: string; high: number; low: number }[] } };

  beforeAll(async () => {
    started = await startApp([AppModule]);
    // What a host does: find the tool's app, read it, call the tool.
    const client = new Client({ name: 'nest-mcp-apps-host', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(started.url)));
    const { tools } = await client.listTools();
    const resourceUri = (tools.find((tool) => tool.name === 'forecast')?._meta?.ui as { resourceUri: string }).resourceUri;
    const app = await client.readResource({ uri: resourceUri });
    const item = app.contents[0] as { mimeType: string; text: string };
    expect(item.mimeType).toBe('text/html;profile=mcp-app');
    const args = { city: 'Lisbon' };
    toolResult = (await client.callTool({ name: 'forecast', arguments: args })) as typeof toolResult;
    await client.close();

    const page = hostPage(item.text, args, toolResult);
    host = createServer((_request, response) => {
      // The app declares no origin (_meta.ui has no csp): nothing may load from anywhere.
      response.writeHead(200, {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'",
      });
      response.end(page);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/`;
    chromium = await launchChromium();
  });

  afterAll(async () => {
    await chromium?.close();
    await new Promise((resolve) => (host ? host.close(resolve) : resolve(undefined)));
    await started?.app.close();
  });

  it('shows the forecast rows the tool returned, having loaded nothing but the host page', async () => {
    const page = await chromium.browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(hostUrl);
    const frame = await (await page.waitForSelector('iframe#app'))!.contentFrame();
    await frame.waitForSelector('#days:not([hidden])');

    const title = await frame.$eval('#title', (element) => element.textContent);
    const rows = await frame.$$eval('#days tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(title).toBe('Forecast for Lisbon');
    expect(rows).toEqual(toolResult.structuredContent.days.map((day) => [day.day, day.sky, String(day.high), String(day.low)]));
    expect(rows).toHaveLength(3);
    expect(await frame.$eval('#status', (element) => element.textContent)).toBe('3 days');
    // The View spoke the protocol in order; the iframe is sandboxed (no same-origin access to the host).
    expect(await page.evaluate(() => (globalThis as unknown as { received: string[] }).received)).toEqual(['ui/initialize', 'ui/notifications/initialized']);
    expect(await page.$eval('iframe#app', (element) => element.getAttribute('sandbox'))).toBe('allow-scripts');
    expect(requested).toEqual([hostUrl]);
    await page.close();
  });
});
