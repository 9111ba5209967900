import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { afterEach, describe, expect, it } from '@jest/globals';
import { McpModule, McpTool, type McpModuleOptions } from 'nest-mcp';
import { onFastify } from './support/http-adapter.js';
import { callMcp, startApp, type StartedApp } from './support/mcp-http.js';
import { plainRequest as get } from './support/plain-request.js';

@Injectable()
class PingTools {
  @McpTool({ name: 'ping-tool', description: 'Answers pong' })
  ping(): string {
    return 'pong';
  }
}

/** Starts an app with `options`, with NODE_ENV and MOCAPI_PLAYGROUND as given while the settings are read. */
async function start(options: McpModuleOptions = {}, env: { NODE_ENV?: string; MOCAPI_PLAYGROUND?: string } = {}): Promise<StartedApp> {
  const saved = { NODE_ENV: process.env.NODE_ENV, MOCAPI_PLAYGROUND: process.env.MOCAPI_PLAYGROUND };
  for (const [key, value] of Object.entries(env)) process.env[key] = value;
  try {
    @Module({ imports: [McpModule.forRoot({ name: 'playground-test', ...options })], providers: [PingTools] })
    class PlaygroundTestModule {}
    return await startApp([PlaygroundTestModule], options.endpoint ?? '/mcp');
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

describe('the playground page over HTTP', () => {
  let started: StartedApp | undefined;
  afterEach(async () => {
    await started?.app.close();
    started = undefined;
  });

  it("serves the app frame under the policy of the app it shows: the origins its query declares, nothing that is not an origin", async () => {
    started = await start();
    const declared = await get(`${started.url}/playground/app-frame.html?connectDomains=${encodeURIComponent('https://api.example')}&connectDomains=${encodeURIComponent("'self'; script-src *")}`);
    expect(declared.status).toBe(200);
    const csp = String(declared.headers['content-security-policy']).split('; ');
    expect(csp).toContain('connect-src https://api.example');
    expect(csp).toContain('sandbox allow-scripts');
    expect(csp.filter((directive) => directive.startsWith('script-src'))).toEqual(["script-src 'unsafe-inline'"]);
    const none = String((await get(`${started.url}/playground/app-frame.html`)).headers['content-security-policy']);
    expect(none).not.toContain('connect-src');
  });

  it('is served outside production, with a strict Content-Security-Policy and its script and styles as files', async () => {
    started = await start();
    const page = await get(`${started.url}/playground`);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    // Nothing inline for the CSP to refuse: the script and the styles are files beside the page.
    expect(page.body).toContain('<script type="module" src="playground/playground.js"></script>');
    expect(page.body).not.toMatch(/<script>|<style|style="/);
    const script = await get(`${started.url}/playground/playground.js`);
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(script.body).toContain("const PROTOCOL_VERSION = '2026-07-28'");
    expect((await get(`${started.url}/playground/playground.css`)).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('answers 404 for files it does not have, and sends …/playground/ to …/playground', async () => {
    started = await start();
    expect((await get(`${started.url}/playground/../../package.json`)).status).toBe(404);
    expect((await get(`${started.url}/playground/index.html`)).status).toBe(404);
    expect((await get(`${started.url}/playground/%2e%2e%2fpackage.json`)).status).toBe(404);
    const slash = await get(`${started.url}/playground/`);
    // Express-only: Fastify routes strictly (no trailing slash) unless the app sets ignoreTrailingSlash.
    if (onFastify) return expect(slash.status).toBe(404);
    expect(slash.status).toBe(308);
    expect(new URL(String(slash.headers.location), `${started.url}/playground/`).href).toBe(`${started.url}/playground`);
  });

  it('leaves the endpoint as it was: GET is still 405, POST still serves', async () => {
    started = await start();
    const endpoint = await get(started.url);
    expect(endpoint.status).toBe(405);
    expect(endpoint.headers.allow).toBe('POST');
    // A browser opening the printed endpoint is told where the page is.
    expect(JSON.parse(endpoint.body).error.message).toBe('Method Not Allowed: the MCP endpoint accepts POST only; open /mcp/playground in a browser to try the server');
    const list = await callMcp(started.url, 'tools/list');
    expect(list.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(['ping-tool']);
  });

  it('applies the endpoint Origin rules: a foreign Origin is refused, a localhost one is served', async () => {
    started = await start();
    expect((await get(`${started.url}/playground`, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await get(`${started.url}/playground/playground.js`, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await get(`${started.url}/playground`, { Origin: 'http://localhost:5173' })).status).toBe(200);
  });

  it('applies allowedHosts and allowedOrigins as the endpoint does', async () => {
    started = await start({ allowedHosts: ['mcp.internal'], allowedOrigins: ['https://tools.example'] });
    expect((await get(`${started.url}/playground`)).status).toBe(403);
    expect((await get(`${started.url}/playground`, { Host: 'mcp.internal' })).status).toBe(200);
    expect((await get(`${started.url}/playground`, { Host: 'mcp.internal', Origin: 'https://tools.example' })).status).toBe(200);
    expect((await get(`${started.url}/playground`, { Host: 'mcp.internal', Origin: 'http://localhost' })).status).toBe(403);
  });

  it('is not served with NODE_ENV=production: the page and its files are 404, the endpoint serves on', async () => {
    started = await start({}, { NODE_ENV: 'production' });
    expect((await get(`${started.url}/playground`)).status).toBe(404);
    expect((await get(`${started.url}/playground/playground.js`)).status).toBe(404);
    expect((await callMcp(started.url, 'tools/list')).status).toBe(200);
    // No page to point at.
    expect(JSON.parse((await get(started.url)).body).error.message).toBe('Method Not Allowed: the MCP endpoint accepts POST only');
  });

  it('is served in production when forced by the option', async () => {
    started = await start({ playground: true }, { NODE_ENV: 'production' });
    expect((await get(`${started.url}/playground`)).status).toBe(200);
  });

  it('is served in production when forced by MOCAPI_PLAYGROUND=true', async () => {
    started = await start({}, { NODE_ENV: 'production', MOCAPI_PLAYGROUND: 'true' });
    expect((await get(`${started.url}/playground`)).status).toBe(200);
  });

  it('can be turned off in development', async () => {
    started = await start({ playground: false }, { NODE_ENV: 'development' });
    expect((await get(`${started.url}/playground`)).status).toBe(404);
  });

  it('follows a custom endpoint', async () => {
    started = await start({ endpoint: '/tools/rpc' });
    expect((await get(`${started.baseUrl}/tools/rpc/playground`)).status).toBe(200);
    expect((await get(`${started.baseUrl}/mcp/playground`)).status).toBe(404);
  });

  it('needs no token when bearer auth is on (the page is static; its MCP calls carry the token)', async () => {
    const verifier = { verify: () => Promise.reject(new Error('no tokens here')) };
    started = await start({ auth: { verifier, resourceMetadata: { resource: 'http://127.0.0.1/mcp', authorization_servers: ['https://auth.example'] } } });
    expect((await get(`${started.url}/playground`)).status).toBe(200);
    const refused = await callMcp(started.url, 'tools/list', {}, { skipSchema: true });
    expect(refused.status).toBe(401);
  });
});
