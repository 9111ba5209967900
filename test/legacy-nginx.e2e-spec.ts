import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpEras } from '../lib/era/index.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { randomSecret } from './support/interactive-http.js';
import { findBinary, missingBinary, startNginx, type LocalService } from './support/local-services.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';

const nginx = findBinary('nginx');
/** The README's upstream rule: a session's requests (and its answers to questions) reach one instance. */
const SESSION_AFFINITY = 'hash $http_mcp_session_id consistent;';
const SESSIONS = 16;

/**
 * 2025 clients (the v1 SDK) through nginx in front of two instances sharing one secret: the
 * question a call sends lives in the instance holding the call's stream, and the client's answer
 * (a separate POST) must reach it, which hashing on Mcp-Session-Id ensures.
 */
describe('2025 sessions behind nginx, two instances (hash $http_mcp_session_id consistent)', () => {
  if (!nginx) {
    missingBinary('nginx', 'the 2025-session nginx test');
    return;
  }

  const secret = randomSecret();
  let proxy: LocalService & { url: string };
  let apps: INestApplication[] = [];

  beforeAll(async () => {
    const started = await Promise.all([startInteractiveApp({ mrtr: { secret } }), startInteractiveApp({ mrtr: { secret } })]);
    apps = started.map(({ app }) => app);
    proxy = await startNginx(nginx, started.map(({ url }) => Number(new URL(url).port)), SESSION_AFFINITY);
  });

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(apps.map((app) => app.close()));
  });

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'legacy-nginx-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) =>
      request.params.message === 'Pick a plan' ? { action: 'accept', content: { plan: 'team' } } : { action: 'accept', content: { confirmed: true } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(proxy.url)));
    return client;
  }

  it('list, call, progress and a two-question elicitation, in many sessions spread over both instances', async () => {
    for (let i = 0; i < SESSIONS; i++) {
      const client = await connect();
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toContain('upgrade-plan');
        const progress: number[] = [];
        const counted = await client.callTool({ name: 'count-up', arguments: {} }, undefined, { onprogress: (event) => progress.push(event.progress) });
        expect(counted.isError).toBeFalsy();
        expect(progress).toEqual([1, 2, 3]);
        const upgraded = await client.callTool({ name: 'upgrade-plan', arguments: { userId: `u-${i}` } });
        expect(upgraded.structuredContent).toEqual({ upgraded: true, plan: 'team' });
      } finally {
        await client.close();
      }
    }
    const charges = apps.map((app) => app.get(BillingService).charges.length);
    // Every upgrade charged exactly once, and both instances held sessions (16 sessions hashed over 2).
    expect(charges[0] + charges[1]).toBe(SESSIONS);
    expect(charges.every((count) => count > 0)).toBe(true);
    expect(apps.map((app) => app.get(McpEras).awaitedClientAnswers)).toEqual([0, 0]);
  }, 120_000);
});
