import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BillingService } from '../sample/tools/billing.service.js';
import { callTool, randomSecret, type McpReply, type Msg } from './support/interactive-http.js';
import { startApp, startInteractiveApp } from './src/interactive-fixture.module.js';

function inputRequired(reply: McpReply, key: string): Msg {
  expect(reply.status).toBe(200);
  expect(reply.response.error).toBeUndefined();
  expect(reply.response.result.resultType).toBe('input_required');
  expect(Object.keys(reply.response.result.inputRequests)).toEqual([key]);
  expect(typeof reply.response.result.requestState).toBe('string');
  return reply.response.result;
}

const PLAN = { 'elicitation-1': { action: 'accept', content: { plan: 'pro' } } };
const CONFIRM = { 'elicitation-2': { action: 'accept', content: { confirmed: true } } };

/** Runs the three rounds of upgrade-plan, round N on urls[N-1]; returns round 3's reply. */
async function upgradeAcross(urls: [string, string, string], userId: string): Promise<McpReply> {
  const round1 = inputRequired(await callTool(urls[0], 'upgrade-plan', { userId }), 'elicitation-1');
  const round2 = inputRequired(
    await callTool(urls[1], 'upgrade-plan', { userId }, { extra: { inputResponses: PLAN, requestState: round1.requestState } }),
    'elicitation-2',
  );
  expect(round2.inputRequests['elicitation-2'].params.message).toBe('Confirm upgrade to pro?');
  expect(round2.requestState).not.toBe(round1.requestState);
  return callTool(urls[2], 'upgrade-plan', { userId }, { extra: { inputResponses: CONFIRM, requestState: round2.requestState } });
}

describe('two instances serving one elicitation (e2e)', () => {
  describe('sharing one secret (mrtr.secret option)', () => {
    const secret = randomSecret();
    let a: INestApplication;
    let b: INestApplication;
    let urlA: string;
    let urlB: string;

    beforeAll(async () => {
      ({ app: a, url: urlA } = await startInteractiveApp({ mrtr: { secret } }));
      ({ app: b, url: urlB } = await startInteractiveApp({ mrtr: { secret } }));
    });

    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });

    it('listens on two different ports', () => {
      expect(urlA).not.toBe(urlB);
    });

    it('round 1 on A, round 2 on B, round 3 on A completes, charging once on A', async () => {
      const reply = await upgradeAcross([urlA, urlB, urlA], 'u-scale');
      expect(reply.status).toBe(200);
      expect(reply.response.error).toBeUndefined();
      expect(reply.response.result.resultType).toBe('complete');
      expect(reply.response.result.structuredContent).toEqual({ upgraded: true, plan: 'pro' });
      expect(a.get(BillingService).charges).toEqual([{ userId: 'u-scale', plan: 'pro' }]);
      expect(b.get(BillingService).charges).toEqual([]);
    });

    it('round 1 on B, rounds 2 and 3 on A completes, charging once on A', async () => {
      const before = a.get(BillingService).charges.length;
      const reply = await upgradeAcross([urlB, urlA, urlA], 'u-other');
      expect(reply.response.result.structuredContent).toEqual({ upgraded: true, plan: 'pro' });
      expect(a.get(BillingService).charges.slice(before)).toEqual([{ userId: 'u-other', plan: 'pro' }]);
      expect(b.get(BillingService).charges).toEqual([]);
    });
  });

  describe('sharing one secret read from ConfigService (mocapi.mrtr.secret)', () => {
    const secret = randomSecret();
    let a: INestApplication;
    let b: INestApplication;
    let urlA: string;
    let urlB: string;

    beforeAll(async () => {
      ({ app: a, url: urlA } = await startInteractiveApp({ config: { mocapi: { mrtr: { secret } } } }));
      ({ app: b, url: urlB } = await startInteractiveApp({ config: { mocapi: { mrtr: { secret } } } }));
    });

    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });

    it('A, B, A completes', async () => {
      const reply = await upgradeAcross([urlA, urlB, urlA], 'u-config');
      expect(reply.response.result).toMatchObject({ resultType: 'complete', structuredContent: { upgraded: true, plan: 'pro' } });
      expect(a.get(BillingService).charges).toEqual([{ userId: 'u-config', plan: 'pro' }]);
    });
  });

  describe("the sample's AppModule with MOCAPI_MRTR_SECRET in the environment", () => {
    const secret = randomSecret();
    let a: INestApplication;
    let b: INestApplication;
    let urlA: string;
    let urlB: string;
    let previous: string | undefined;

    beforeAll(async () => {
      previous = process.env.MOCAPI_MRTR_SECRET;
      process.env.MOCAPI_MRTR_SECRET = secret;
      const { AppModule } = await import('../sample/app.module.js');
      ({ app: a, url: urlA } = await startApp(AppModule));
      ({ app: b, url: urlB } = await startApp(AppModule));
    });

    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
      if (previous === undefined) delete process.env.MOCAPI_MRTR_SECRET;
      else process.env.MOCAPI_MRTR_SECRET = previous;
    });

    it('A, B, A completes and charges once', async () => {
      const reply = await upgradeAcross([urlA, urlB, urlA], 'u-sample');
      expect(reply.response.result).toMatchObject({ resultType: 'complete', structuredContent: { upgraded: true, plan: 'pro' } });
      expect(a.get(BillingService).charges).toEqual([{ userId: 'u-sample', plan: 'pro' }]);
      expect(b.get(BillingService).charges).toEqual([]);
    });
  });

  describe('with different secrets', () => {
    let a: INestApplication;
    let b: INestApplication;
    let urlA: string;
    let urlB: string;

    beforeAll(async () => {
      ({ app: a, url: urlA } = await startInteractiveApp({ mrtr: { secret: randomSecret() } }));
      ({ app: b, url: urlB } = await startInteractiveApp({ mrtr: { secret: randomSecret() } }));
    });

    afterAll(async () => {
      await Promise.all([a?.close(), b?.close()]);
    });

    it('round 2 on the other instance is -32602 and nothing is charged', async () => {
      const round1 = inputRequired(await callTool(urlA, 'upgrade-plan', { userId: 'u-split' }), 'elicitation-1');
      const reply = await callTool(urlB, 'upgrade-plan', { userId: 'u-split' }, {
        extra: { inputResponses: PLAN, requestState: round1.requestState },
      });
      expect(reply.response.result).toBeUndefined();
      expect(reply.response.error.code).toBe(-32602);
      expect(reply.response.error.message).toMatch(/different server key/);

      // Round 3 on B with A's round-2 token fails the same way.
      const round2 = inputRequired(
        await callTool(urlA, 'upgrade-plan', { userId: 'u-split' }, { extra: { inputResponses: PLAN, requestState: round1.requestState } }),
        'elicitation-2',
      );
      const round3 = await callTool(urlB, 'upgrade-plan', { userId: 'u-split' }, {
        extra: { inputResponses: CONFIRM, requestState: round2.requestState },
      });
      expect(round3.response.error.code).toBe(-32602);
      expect(a.get(BillingService).charges).toEqual([]);
      expect(b.get(BillingService).charges).toEqual([]);
    });

    it('without any secret (ephemeral keys) the instances cannot share rounds either', async () => {
      const { app: c, url: urlC } = await startInteractiveApp();
      const { app: d, url: urlD } = await startInteractiveApp();
      try {
        const round1 = inputRequired(await callTool(urlC, 'upgrade-plan', { userId: 'u-eph' }), 'elicitation-1');
        const reply = await callTool(urlD, 'upgrade-plan', { userId: 'u-eph' }, {
          extra: { inputResponses: PLAN, requestState: round1.requestState },
        });
        expect(reply.response.error.code).toBe(-32602);
      } finally {
        await Promise.all([c.close(), d.close()]);
      }
    });
  });
});
