import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Test } from '@nestjs/testing';
import { callTool, randomSecret, sleep, type McpReply, type Msg } from './support/interactive-http.js';
import { InteractiveFixtureModule, startInteractiveApp } from './src/interactive-fixture.module.js';
import { runState } from './src/interactive-fixture.tools.js';

const RESTART = /start the call over without requestState/;

function inputRequired(reply: McpReply): Msg {
  expect(reply.status).toBe(200);
  expect(reply.response.error).toBeUndefined();
  expect(reply.response.result.resultType).toBe('input_required');
  expect(typeof reply.response.result.requestState).toBe('string');
  return reply.response.result;
}

function invalidParams(reply: McpReply, message: RegExp): void {
  expect([200, 400]).toContain(reply.status);
  expect(reply.contentType).toBe('application/json');
  expect(reply.response.result).toBeUndefined();
  expect(reply.response.error.code).toBe(-32602);
  expect(reply.response.error.message).toMatch(message);
}

/** Replaces the character in the middle with another base64url character. */
function flipMiddle(token: string): string {
  const middle = Math.floor(token.length / 2);
  const replacement = token[middle] === 'A' ? 'B' : 'A';
  return token.slice(0, middle) + replacement + token.slice(middle + 1);
}

describe('requestState integrity and binding (e2e)', () => {
  let appA: INestApplication;
  let urlA: string;
  let appB: INestApplication;
  let urlB: string;
  let appShort: INestApplication;
  let urlShort: string;

  beforeAll(async () => {
    ({ app: appA, url: urlA } = await startInteractiveApp({ mrtr: { secret: randomSecret() } }));
    ({ app: appB, url: urlB } = await startInteractiveApp({ mrtr: { secret: randomSecret() } }));
    ({ app: appShort, url: urlShort } = await startInteractiveApp({ mrtr: { secret: randomSecret(), ttl: 'PT1S' } }));
  });

  afterAll(async () => {
    await Promise.all([appA?.close(), appB?.close(), appShort?.close()]);
  });

  /** Round 1 and round 2 of `guarded` on `url`: the token of round 2 carries one answered position. */
  async function secondRoundToken(url: string, x = 'one'): Promise<string> {
    const round1 = inputRequired(await callTool(url, 'guarded', { x }));
    const round2 = inputRequired(
      await callTool(url, 'guarded', { x }, {
        extra: { inputResponses: { 'elicitation-1': { action: 'accept', content: { a: 'alpha' } } }, requestState: round1.requestState },
      }),
    );
    expect(Object.keys(round2.inputRequests)).toEqual(['elicitation-2']);
    return round2.requestState;
  }

  /** The retry of round 2 with `token`, as a client that answers the second question would send it. */
  function retry(url: string, token: string, args: Record<string, unknown> = { x: 'one' }, tool = 'guarded') {
    return callTool(url, tool, args, {
      extra: { inputResponses: { 'elicitation-2': { action: 'accept', content: { b: 'beta' } } }, requestState: token },
    });
  }

  it('the untouched token completes (control for the cases below)', async () => {
    const token = await secondRoundToken(urlA);
    const completed = runState.guardedCompleted;
    const reply = await retry(urlA, token);
    expect(reply.response.result).toMatchObject({ resultType: 'complete', structuredContent: { x: 'one', a: 'alpha', b: 'beta' } });
    expect(runState.guardedCompleted).toBe(completed + 1);
  });

  describe('bad tokens are -32602 and the handler does not run', () => {
    const cases: Array<[string, (token: string) => string, RegExp]> = [
      ["an appended '-TAMPERED'", (token) => `${token}-TAMPERED`, /failed verification/],
      ['a flipped middle character', flipMiddle, /failed verification/],
      ['a flipped last character', (token) => token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A'), /failed verification/],
      ['a truncated token (20 characters)', (token) => token.slice(0, 20), /truncated/],
      ['a token missing its last 8 characters', (token) => token.slice(0, -8), /failed verification/],
      ['a token that is not base64url', (token) => `${token.slice(0, 10)}+/=${token.slice(13)}`, /not base64url/],
    ];

    it.each(cases)('%s', async (_label, mangle, message) => {
      const token = await secondRoundToken(urlA);
      const entries = runState.guardedEntries;
      const pastFirst = runState.guardedPastFirst;
      const reply = await retry(urlA, mangle(token));
      invalidParams(reply, message);
      expect(reply.response.error.message).toMatch(RESTART);
      expect(runState.guardedEntries).toBe(entries);
      expect(runState.guardedPastFirst).toBe(pastFirst);
    });

    it.each([
      ['a number', 12345],
      ['an empty string', ''],
      ['an object', { state: 'x' }],
    ])('a requestState that is %s', async (_label, requestState) => {
      const entries = runState.guardedEntries;
      const reply = await callTool(urlA, 'guarded', { x: 'one' }, { extra: { requestState } });
      invalidParams(reply, /requestState must be a non-empty string/);
      expect(runState.guardedEntries).toBe(entries);
    });

    it('a token issued with another key (app A -> app B)', async () => {
      const token = await secondRoundToken(urlA);
      const entries = runState.guardedEntries;
      const reply = await retry(urlB, token);
      invalidParams(reply, /failed verification \(it was modified or issued with a different server key\)/);
      expect(runState.guardedEntries).toBe(entries);
    });

    it('an expired token (ttl PT1S, retried after 1.2 s)', async () => {
      // The round-1 token: reaching round 2 would need it used within its 1 s, a race on a busy machine.
      const round1 = inputRequired(await callTool(urlShort, 'guarded', { x: 'one' }));
      // A lifetime is time: load can only lengthen this wait, never make the token fresh.
      await sleep(1200);
      const entries = runState.guardedEntries;
      const reply = await callTool(urlShort, 'guarded', { x: 'one' }, {
        extra: { inputResponses: { 'elicitation-1': { action: 'accept', content: { a: 'alpha' } } }, requestState: round1.requestState },
      });
      invalidParams(reply, /requestState has expired/);
      expect(reply.response.error.message).toMatch(RESTART);
      expect(runState.guardedEntries).toBe(entries);
    });

    it('a token retried with other arguments', async () => {
      const token = await secondRoundToken(urlA, 'one');
      const entries = runState.guardedEntries;
      const reply = await retry(urlA, token, { x: 'two' });
      invalidParams(reply, /requestState was issued for other arguments/);
      expect(runState.guardedEntries).toBe(entries);
    });

    it('a token of tool "guarded" sent to tool "guarded-twin"', async () => {
      const round1 = inputRequired(await callTool(urlA, 'guarded', { x: 'one' }));
      const twinEntries = runState.twinEntries;
      const reply = await callTool(urlA, 'guarded-twin', { x: 'one' }, {
        extra: { inputResponses: { 'elicitation-1': { action: 'accept', content: { a: 'alpha' } } }, requestState: round1.requestState },
      });
      invalidParams(reply, /requestState was issued for tools\/call "guarded", not for tools\/call "guarded-twin"/);
      expect(runState.twinEntries).toBe(twinEntries);
    });
  });

  describe('fingerprints', () => {
    it('a replay that asks a different question is -32602 explaining the idempotency contract; the handler stops at its first elicit', async () => {
      const round1 = inputRequired(await callTool(urlA, 'drifter', {}));
      const asked = round1.inputRequests['elicitation-1'].params.message as string;
      expect(asked).toMatch(/^Question number \d+$/);
      const entries = runState.drifterEntries;
      const pastFirst = runState.drifterPastFirst;

      const reply = await callTool(urlA, 'drifter', {}, {
        extra: { inputResponses: { 'elicitation-1': { action: 'accept', content: { a: 'yes' } } }, requestState: round1.requestState },
      });
      invalidParams(reply, /The question at position 1 differs from the one the client answered/);
      expect(reply.response.error.message).toMatch(/same questions, in the same order/);
      expect(runState.drifterEntries).toBe(entries + 1);
      expect(runState.drifterPastFirst).toBe(pastFirst);
    });

    it('the same question answered twice in a row still works (control: the fingerprint is stable)', async () => {
      const token = await secondRoundToken(urlA);
      const pastFirst = runState.guardedPastFirst;
      const reply = await retry(urlA, token);
      expect(reply.response.result.resultType).toBe('complete');
      expect(runState.guardedPastFirst).toBe(pastFirst + 1);
    });
  });
});

describe('requestState secret at start-up', () => {
  const shortKey = Buffer.alloc(16, 1).toString('base64');

  it('an mrtr.secret option of the wrong length fails start-up with a clear message', async () => {
    await expect(
      Test.createTestingModule({ imports: [InteractiveFixtureModule.forRoot({ mrtr: { secret: shortKey } })] }).compile(),
    ).rejects.toThrow('McpModule option mrtr.secret must be a base64-encoded 256-bit key (32 bytes); got 16 bytes');
  });

  it('a mocapi.mrtr.secret from ConfigService of the wrong length fails start-up too', async () => {
    await expect(
      Test.createTestingModule({ imports: [InteractiveFixtureModule.forRoot({ config: { mocapi: { mrtr: { secret: shortKey } } } })] }).compile(),
    ).rejects.toThrow('mocapi.mrtr.secret must be a base64-encoded 256-bit key (32 bytes); got 16 bytes');
  });
});
