import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { BillingService } from '../sample/tools/billing.service.js';
import { callTool, randomSecret } from './support/interactive-http.js';
import { CONFIRM, finalRoundToken, inputRequired, PLAN, reused } from './support/upgrade-plan.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';

describe('requestState is accepted once (e2e)', () => {
  let app: INestApplication;
  let url: string;
  let charges: BillingService['charges'];

  beforeAll(async () => {
    ({ app, url } = await startInteractiveApp({ mrtr: { secret: randomSecret() } }));
    charges = app.get(BillingService).charges;
  });

  afterAll(async () => {
    await app?.close();
  });

  beforeEach(() => {
    charges.length = 0;
  });

  it('a replayed final round is refused with -32602 and the charge runs exactly once', async () => {
    const token = await finalRoundToken(url, 'u-replay');
    const done = await callTool(url, 'upgrade-plan', { userId: 'u-replay' }, { extra: { inputResponses: CONFIRM, requestState: token } });
    expect(done.response.result).toMatchObject({ resultType: 'complete', structuredContent: { upgraded: true, plan: 'pro' } });
    for (let replay = 0; replay < 5; replay++) {
      reused(await callTool(url, 'upgrade-plan', { userId: 'u-replay' }, { extra: { inputResponses: CONFIRM, requestState: token } }));
    }
    expect(charges).toEqual([{ userId: 'u-replay', plan: 'pro' }]);
  });

  it('of five concurrent sends of the final round, one completes and four are refused', async () => {
    const token = await finalRoundToken(url, 'u-race');
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => callTool(url, 'upgrade-plan', { userId: 'u-race' }, { extra: { inputResponses: CONFIRM, requestState: token } })),
    );
    expect(replies.filter((reply) => reply.response.result?.resultType === 'complete')).toHaveLength(1);
    replies.filter((reply) => reply.response.error).forEach(reused);
    expect(charges).toHaveLength(1);
  });

  it('an earlier round replayed is refused too', async () => {
    const round1 = inputRequired(await callTool(url, 'upgrade-plan', { userId: 'u-mid' }), 'elicitation-1');
    const retry = () => callTool(url, 'upgrade-plan', { userId: 'u-mid' }, { extra: { inputResponses: PLAN, requestState: round1.requestState } });
    inputRequired(await retry(), 'elicitation-2');
    reused(await retry());
  });

  it('a round re-asked for a bad answer issues a fresh token, and the old one stays spent', async () => {
    const round1 = inputRequired(await callTool(url, 'upgrade-plan', { userId: 'u-again' }), 'elicitation-1');
    const bad = { 'elicitation-1': { action: 'accept', content: { plan: 'gold' } } };
    const again = inputRequired(
      await callTool(url, 'upgrade-plan', { userId: 'u-again' }, { extra: { inputResponses: bad, requestState: round1.requestState } }),
      'elicitation-1',
    );
    expect(again.requestState).not.toBe(round1.requestState);
    reused(await callTool(url, 'upgrade-plan', { userId: 'u-again' }, { extra: { inputResponses: PLAN, requestState: round1.requestState } }));
    inputRequired(
      await callTool(url, 'upgrade-plan', { userId: 'u-again' }, { extra: { inputResponses: PLAN, requestState: again.requestState } }),
      'elicitation-2',
    );
  });

  it('pre-answered keys without requestState are ignored: the first question comes back, nothing is charged', async () => {
    const reply = await callTool(url, 'upgrade-plan', { userId: 'u-guess' }, { extra: { inputResponses: { ...PLAN, ...CONFIRM } } });
    const asked = inputRequired(reply, 'elicitation-1');
    expect(asked.inputRequests['elicitation-1'].params.message).toBe('Pick a plan');
    expect(charges).toEqual([]);
  });

  it('with round 1\'s requestState, a pre-answered second question is ignored: it is asked', async () => {
    const round1 = inputRequired(await callTool(url, 'upgrade-plan', { userId: 'u-ahead' }), 'elicitation-1');
    const reply = await callTool(url, 'upgrade-plan', { userId: 'u-ahead' }, {
      extra: { inputResponses: { ...PLAN, ...CONFIRM }, requestState: round1.requestState },
    });
    inputRequired(reply, 'elicitation-2');
    expect(charges).toEqual([]);
  });
});
