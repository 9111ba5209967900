import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { INestApplication } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpEras } from '../lib/era/index.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { randomSecret } from './support/interactive-http.js';
import { findBinary, missingBinary, startNginx, startRedis, type LocalService } from './support/local-services.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';

const nginx = findBinary('nginx');
const redisServer = findBinary('redis-server');
const SESSIONS = 16;

/**
 * 2025 clients (the v1 SDK) through nginx in front of two instances sharing one secret and one Redis,
 * round-robin (no session affinity): the question a call sends lives in the instance holding the
 * call's stream, and the client's answer (a separate POST) lands on either; the bus carries it.
 */
describe('2025 sessions behind round-robin nginx, two instances sharing one Redis', () => {
  if (!nginx || !redisServer) {
    missingBinary(nginx ? 'redis-server' : 'nginx', 'the 2025-session nginx test');
    return;
  }

  const secret = randomSecret();
  let proxy: LocalService & { url: string };
  let redis: LocalService & { url: string };
  let apps: INestApplication[] = [];

  beforeAll(async () => {
    redis = await startRedis(redisServer);
    const options = { mrtr: { secret }, store: { redisUrl: redis.url } };
    const started = await Promise.all([startInteractiveApp(options), startInteractiveApp(options)]);
    apps = started.map(({ app }) => app);
    proxy = await startNginx(nginx, started.map(({ url }) => Number(new URL(url).port)));
  });

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all(apps.map((app) => app.close()));
    await redis?.stop();
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
    // Every upgrade charged exactly once. (Round-robin over two: each answer is the request after its call's, so it
    // lands on the other instance; which instance holds the calls depends on each session's request count.)
    expect(charges[0] + charges[1]).toBe(SESSIONS);
    expect(apps.map((app) => app.get(McpEras).awaitedClientAnswers)).toEqual([0, 0]);
  }, 120_000);
});
