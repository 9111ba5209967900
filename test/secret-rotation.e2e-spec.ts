import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import type { LoggerService } from '@nestjs/common';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryMcpStore, McpModule } from '../lib/index.js';
import { sealKeyId } from '../lib/mrtr/request-state.key.js';
import { BillingService } from '../sample/tools/billing.service.js';
import { callTool, randomSecret } from './support/interactive-http.js';
import { findBinary, missingBinary, startNginx, type LocalService } from './support/local-services.js';
import { legacySessionHeaders, openLegacySession, postMcp, startupFailure } from './support/mcp-http.js';
import { startReliabilityApp, type ReliabilityApp, type ReliabilityOptions } from './src/reliability-fixture.js';

const nginx = findBinary('nginx');
const [A, B] = [randomSecret(), randomSecret()];
/** The key id (hex) a value sealed with `secret` carries. */
const idOf = (secret: string) => sealKeyId(Buffer.from(secret, 'base64')).toString('hex');
/** The key id (hex) a sealed value carries: bytes 1 to 4, after the format byte. */
const sealedBy = (token: string) => Buffer.from(token, 'base64url').subarray(1, 5).toString('hex');
/** 'A' or 'B' for the key id of A or B, else the id itself. */
const keyName = (id: string | undefined) => (id === idOf(A) ? 'A' : id === idOf(B) ? 'B' : id);

/** One POST a client sent: the instance that answered, and the key id of the requestState it carried. */
interface Sent {
  method?: string;
  instance: string | null;
  status: number;
  stateSealedBy?: string;
  sessionSealedBy?: string;
}

/** A `fetch` for the clients' transports that notes every request in `log`, the answer left untouched. */
function noting(log: Sent[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string; params?: { requestState?: unknown } }) : undefined;
    const state = body?.params?.requestState;
    const session = new Headers(init?.headers).get('mcp-session-id');
    log.push({
      method: body?.method ?? init?.method,
      instance: response.headers.get('x-instance'),
      status: response.status,
      ...(typeof state === 'string' ? { stateSealedBy: sealedBy(state) } : {}),
      ...(session ? { sessionSealedBy: sealedBy(session) } : {}),
    });
    return response;
  };
}

/** A 2026-07-28 client (the official 2.x) answering upgrade-plan's two questions; `onFirst` runs before the first answer. */
async function modernClient(url: string, log: Sent[], onFirst: () => Promise<void> = async () => undefined): Promise<ModernClient> {
  const client = new ModernClient({ name: 'rotation-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  client.setRequestHandler('elicitation/create', async (request) => {
    const first = request.params.message === 'Pick a plan';
    if (first) await onFirst();
    const content: Record<string, string | boolean> = first ? { plan: 'team' } : { confirmed: true };
    return { action: 'accept' as const, content };
  });
  await client.connect(new ModernTransport(new URL(url), { fetch: noting(log) }));
  return client;
}

/** A 2025-11-25 session (the v1 SDK), answering upgrade-plan's questions as server→client requests. */
async function legacyClient(url: string, log: Sent[]): Promise<{ client: LegacyClient; transport: LegacyTransport }> {
  const client = new LegacyClient({ name: 'rotation-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) =>
    request.params.message === 'Pick a plan' ? { action: 'accept', content: { plan: 'pro' } } : { action: 'accept', content: { confirmed: true } },
  );
  const transport = new LegacyTransport(new URL(url), { fetch: noting(log) });
  await client.connect(transport);
  return { client, transport };
}

describe('rotating mocapi.mrtr.secret (e2e)', () => {
  describe('one instance restarted: A, then B current with A previous, then B alone', () => {
    let server: ReliabilityApp;
    const clients: Array<{ close(): Promise<void> }> = [];
    // The store outlives the restarts, as Redis does: a process's own memory would not, and what was sealed
    // before a store that forgot is refused whatever the keys (store-forgets.e2e-spec.ts).
    const store = { instance: new InMemoryMcpStore() };

    /** Stops the instance and starts it again on the same address with `mrtr`. */
    async function restart(mrtr: ReliabilityOptions['mrtr']): Promise<void> {
      const http = server.app.getHttpServer();
      await server.app.close();
      // A restarted process leaves no connection behind: end those still open (the 2025 stream), as its
      // exit would, and give the clients one turn of the event loop to read their end before the new
      // process listens (else a client may write its next request into a connection already closed).
      http.closeAllConnections();
      await new Promise((resolve) => setImmediate(resolve));
      server = await startReliabilityApp({ mrtr, store, port: server.port });
    }

    /** Round 1 of upgrade-plan by raw HTTP: its requestState, not used yet. */
    async function roundOneToken(userId: string): Promise<string> {
      const reply = await callTool(server.url, 'upgrade-plan', { userId });
      expect(reply.response.result?.resultType).toBe('input_required');
      return reply.response.result.requestState as string;
    }

    beforeAll(async () => {
      server = await startReliabilityApp({ mrtr: { secret: A }, store });
    });

    afterAll(async () => {
      for (const client of clients) await client.close().catch(() => undefined);
      await server?.app.close();
    });

    // Sealed under A in the first test, opened after each restart in the next ones.
    let legacy: { client: LegacyClient; transport: LegacyTransport };
    let legacySessionId: string;
    let spareUnderA: string;
    const sent: Sent[] = [];

    it('an elicitation round and a 2025 session sealed under A go on after the restart with B current and A previous', async () => {
      legacy = await legacyClient(server.url, []);
      clients.push(legacy.client);
      legacySessionId = legacy.transport.sessionId!;
      expect(sealedBy(legacySessionId)).toBe(idOf(A));
      expect((await legacy.client.listTools()).tools.map((tool) => tool.name)).toContain('upgrade-plan');
      spareUnderA = await roundOneToken('u-spare');
      expect(sealedBy(spareUnderA)).toBe(idOf(A));

      // The server restarts while the user answers the first question; the client then sends round 2.
      const modern = await modernClient(server.url, sent, () => restart({ secret: B, previousSecrets: [A] }));
      clients.push(modern);
      const upgraded = await modern.callTool({ name: 'upgrade-plan', arguments: { userId: 'u-rotated' } });
      expect(upgraded.structuredContent).toEqual({ upgraded: true, plan: 'team' });
      // Round 2 carried A's token to the restarted server, which sealed round 3's with B.
      expect(sent.filter((request) => request.stateSealedBy).map((request) => request.stateSealedBy)).toEqual([idOf(A), idOf(B)]);
      expect(server.app.get(BillingService).charges).toEqual([{ userId: 'u-rotated', plan: 'team' }]);

      // The 2025 session, sealed under A, goes on: a list, and a call with two questions on its stream.
      expect((await legacy.client.listTools()).tools.map((tool) => tool.name)).toContain('upgrade-plan');
      const legacyUpgrade = await legacy.client.callTool({ name: 'upgrade-plan', arguments: { userId: 'u-legacy' } });
      expect(legacyUpgrade.structuredContent).toEqual({ upgraded: true, plan: 'pro' });
      expect(legacy.transport.sessionId).toBe(legacySessionId);
      expect(server.app.get(BillingService).charges).toEqual([
        { userId: 'u-rotated', plan: 'team' },
        { userId: 'u-legacy', plan: 'pro' },
      ]);
    });

    it('after A is dropped (B alone), what A sealed is refused with the usual codes, and what B sealed still serves', async () => {
      expect(spareUnderA).toBeDefined();
      const underB = await roundOneToken('u-b');
      expect(sealedBy(underB)).toBe(idOf(B));
      const sessionUnderB = (await openLegacySession(server.url)).sessionId;
      expect(sealedBy(sessionUnderB)).toBe(idOf(B));

      await restart({ secret: B });

      const answer = { 'elicitation-1': { action: 'accept', content: { plan: 'pro' } } };
      const refused = await callTool(server.url, 'upgrade-plan', { userId: 'u-spare' }, { extra: { inputResponses: answer, requestState: spareUnderA } });
      expect(refused.response.error).toMatchObject({ code: -32602, message: expect.stringMatching(/different server key/) });
      const served = await callTool(server.url, 'upgrade-plan', { userId: 'u-b' }, { extra: { inputResponses: answer, requestState: underB } });
      expect(served.response.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'elicitation-2': expect.any(Object) } });

      const list = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
      const gone = await postMcp(server.url, list(1), { headers: legacySessionHeaders(legacySessionId), skipSchema: true });
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe(-32001);
      await expect(legacy.client.listTools()).rejects.toThrow();
      const alive = await postMcp(server.url, list(2), { headers: legacySessionHeaders(sessionUnderB), skipSchema: true });
      expect(alive.status).toBe(200);
      expect(alive.body.result.tools.map((tool: { name: string }) => tool.name)).toContain('upgrade-plan');
    });
  });

  describe('a mixed pair behind nginx, round-robin: one A current / B previous, the other B current / A previous', () => {
    if (!nginx) {
      missingBinary('nginx', 'the mixed-keys nginx test');
      return;
    }

    let proxy: LocalService & { url: string };
    let apps: ReliabilityApp[] = [];

    beforeAll(async () => {
      apps = await Promise.all([
        startReliabilityApp({ mrtr: { secret: A, previousSecrets: [B] }, instance: 'a' }),
        startReliabilityApp({ mrtr: { secret: B, previousSecrets: [A] }, instance: 'b' }),
      ]);
      proxy = await startNginx(nginx, apps.map((app) => app.port));
    });

    afterAll(async () => {
      await proxy?.stop();
      await Promise.all(apps.map(({ app }) => app.close()));
    });

    it("serves one client's rounds across both, each instance opening what the other sealed", async () => {
      const sent: Sent[] = [];
      const client = await modernClient(proxy.url, sent);
      try {
        for (const userId of ['u-pair-1', 'u-pair-2']) {
          const upgraded = await client.callTool({ name: 'upgrade-plan', arguments: { userId } });
          expect(upgraded.structuredContent).toEqual({ upgraded: true, plan: 'team' });
        }
      } finally {
        await client.close();
      }
      const rounds = sent.filter((request) => request.stateSealedBy);
      expect(rounds.every((round) => round.status === 200)).toBe(true);
      const crossings = new Set(rounds.map((round) => `${keyName(round.stateSealedBy)}→${round.instance}`));
      expect(crossings).toContain('A→b');
      expect(crossings).toContain('B→a');
      const charges = apps.flatMap(({ app }) => app.get(BillingService).charges).filter((charge) => charge.userId.startsWith('u-pair-'));
      expect(charges.map((charge) => charge.userId).sort()).toEqual(['u-pair-1', 'u-pair-2']);
    });

    it('serves one 2025 session on both: the instance whose key is previous opens it too', async () => {
      const sent: Sent[] = [];
      const { client, transport } = await legacyClient(proxy.url, sent);
      try {
        for (let i = 0; i < 4; i++) {
          const echoed = await client.callTool({ name: 'echo', arguments: { message: `m${i}` } });
          expect(echoed.content).toEqual([{ type: 'text', text: `m${i}` }]);
        }
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      } finally {
        await client.close();
      }
      expect(['A', 'B']).toContain(keyName(sealedBy(transport.sessionId!)));
      const inSession = sent.filter((request) => request.sessionSealedBy);
      expect(inSession.every((request) => request.status < 300)).toBe(true);
      // Both instances answered the session's requests: one of them opened it with its previous key.
      expect(new Set(inSession.map((request) => request.instance))).toEqual(new Set(['a', 'b']));
    });
  });

  describe('start-up', () => {
    const config = (values: Record<string, string>) => ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => values] });

    it.each([
      ['previous keys without a current one', { MOCAPI_MRTR_PREVIOUS_SECRETS: A }, 'MOCAPI_MRTR_PREVIOUS_SECRETS is set but mocapi.mrtr.secret is not: set the current key too (previous keys only open what they sealed before)'],
      ['a malformed entry', { MOCAPI_MRTR_SECRET: A, MOCAPI_MRTR_PREVIOUS_SECRETS: `${B},c2hvcnQ=` }, 'MOCAPI_MRTR_PREVIOUS_SECRETS entry 2 must be a base64-encoded 256-bit key (32 bytes); got 5 bytes'],
      ['an empty entry', { MOCAPI_MRTR_SECRET: A, MOCAPI_MRTR_PREVIOUS_SECRETS: `${B},` }, 'MOCAPI_MRTR_PREVIOUS_SECRETS entry 2 must be a base64-encoded 256-bit key (32 bytes); got an empty value'],
      ['the current key among the previous ones', { MOCAPI_MRTR_SECRET: A, MOCAPI_MRTR_PREVIOUS_SECRETS: A }, 'MOCAPI_MRTR_PREVIOUS_SECRETS entry 1 is the same key as MOCAPI_MRTR_SECRET: a key is either current or previous, not both'],
      ['a previous key listed twice', { MOCAPI_MRTR_SECRET: A, MOCAPI_MRTR_PREVIOUS_SECRETS: `${B}, ${B}` }, 'MOCAPI_MRTR_PREVIOUS_SECRETS entry 2 is the same key as MOCAPI_MRTR_PREVIOUS_SECRETS entry 1: list each previous key once'],
    ])('fails in one line, naming the setting and never a key: %s', async (_label, values, message) => {
      const error = await startupFailure([config(values), McpModule.forRoot()]);
      expect(error.message).toBe(message);
      expect(error.message).not.toContain(A);
      expect(error.message).not.toContain(B);
    });

    it('the option form fails the same way', async () => {
      const error = await startupFailure([McpModule.forRoot({ mrtr: { secret: A, previousSecrets: [B, A] } })]);
      expect(error.message).toBe('McpModule option mrtr.previousSecrets entry 2 is the same key as McpModule option mrtr.secret: a key is either current or previous, not both');
    });

    it('logs the key ids it seals and opens with, never the keys', async () => {
      const lines: string[] = [];
      const logger: LoggerService = { log: (message: unknown) => lines.push(String(message)), error: () => undefined, warn: () => undefined };
      const moduleRef = await Test.createTestingModule({ imports: [McpModule.forRoot({ mrtr: { secret: B, previousSecrets: [A] } })] }).setLogger(logger).compile();
      await moduleRef.close();
      const line = lines.find((text) => text.startsWith('mocapi.mrtr.secret:'));
      expect(lines.join('\n')).not.toContain(A);
      expect(line).toBe(`mocapi.mrtr.secret: sealing with key id ${idOf(B)}; also opening what previous key ids ${idOf(A)} sealed (mocapi.mrtr.previous-secrets)`);
    });
  });
});
