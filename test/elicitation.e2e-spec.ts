import type { INestApplication, LoggerService } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { McpTest, type McpTestClient } from 'nest-mcp/testing';
import { BillingService } from '../sample/tools/billing.service.js';
import { callTool, type McpReply, type Msg } from './support/interactive-http.js';
import { until } from './support/waiting.js';
import { startInteractiveApp } from './src/interactive-fixture.module.js';
import { lateState, runState } from './src/interactive-fixture.tools.js';

const ONBOARD_REQUEST = {
  method: 'elicitation/create',
  params: {
    mode: 'form',
    message: 'Please enter your details',
    requestedSchema: {
      type: 'object',
      properties: {
        name: { type: 'string', title: 'Your name' },
        email: { type: 'string', title: 'Email address', format: 'email' },
      },
      required: ['name', 'email'],
    },
  },
};

function expectInputRequired(reply: McpReply): Msg {
  expect(reply.status).toBe(200);
  expect(reply.response.error).toBeUndefined();
  const result = reply.response.result;
  expect(result.resultType).toBe('input_required');
  expect(typeof result.requestState).toBe('string');
  expect(result.requestState.length).toBeGreaterThan(0);
  expect(result).not.toHaveProperty('content');
  expect(result).not.toHaveProperty('ttlMs');
  return result;
}

function expectComplete(reply: McpReply): Msg {
  expect(reply.status).toBe(200);
  expect(reply.response.error).toBeUndefined();
  const result = reply.response.result;
  expect(result.resultType).toBe('complete');
  expect(result).not.toHaveProperty('inputRequests');
  expect(result).not.toHaveProperty('requestState');
  return result;
}

function progressParams(reply: McpReply): unknown[] {
  return reply.notifications.map((message) => {
    expect(message.method).toBe('notifications/progress');
    return message.params;
  });
}

describe('elicitation by multi round-trip requests (e2e)', () => {
  let app: INestApplication;
  let url: string;
  /** For the tests about what a tool does with the answers, rather than about the rounds on the wire. */
  let client: McpTestClient;

  beforeAll(async () => {
    ({ app, url } = await startInteractiveApp());
    client = await McpTest.createClient(app);
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  describe('one question: onboard', () => {
    it('round 1 answers input_required with one form elicitation and a requestState', async () => {
      const reply = await callTool(url, 'onboard', {});
      expect(reply.contentType).toBe('application/json');
      const result = expectInputRequired(reply);
      expect(result.inputRequests).toEqual({ 'elicitation-1': ONBOARD_REQUEST });
    });

    it('the retry with inputResponses and requestState completes', async () => {
      const first = expectInputRequired(await callTool(url, 'onboard', {}));
      const reply = await callTool(url, 'onboard', {}, {
        extra: {
          inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada', email: 'ada@example.com' } } },
          requestState: first.requestState,
        },
      });
      const result = expectComplete(reply);
      expect(result.structuredContent).toEqual({ message: 'Welcome, Ada!' });
      expect(result.content).toEqual([{ type: 'text', text: '{"message":"Welcome, Ada!"}' }]);
    });

    it.each(['decline', 'cancel'])('a %s answer is handled by the tool, no getter crash', async (action) => {
      const first = expectInputRequired(await callTool(url, 'onboard', {}));
      const reply = await callTool(url, 'onboard', {}, {
        extra: { inputResponses: { 'elicitation-1': { action } }, requestState: first.requestState },
      });
      const result = expectComplete(reply);
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual({ message: 'Onboarding cancelled.' });
    });

    it('an answer that does not fit the schema (bad email) asks again', async () => {
      const first = expectInputRequired(await callTool(url, 'onboard', {}));
      const reply = await callTool(url, 'onboard', {}, {
        extra: {
          inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Ada', email: 'not-an-email' } } },
          requestState: first.requestState,
        },
      });
      const again = expectInputRequired(reply);
      expect(again.inputRequests).toEqual({ 'elicitation-1': ONBOARD_REQUEST });
    });
  });

  describe("three round trips: the seed's upgrade-plan", () => {
    it('asks plan, then confirmation, then charges exactly once', async () => {
      const billing = app.get(BillingService);
      const before = billing.charges.length;

      const round1 = expectInputRequired(await callTool(url, 'upgrade-plan', { userId: 'u-42' }));
      expect(round1.inputRequests).toEqual({
        'elicitation-1': {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Pick a plan',
            requestedSchema: {
              type: 'object',
              properties: { plan: { type: 'string', title: 'New plan', enum: ['pro', 'team'] } },
              required: ['plan'],
            },
          },
        },
      });
      expect(billing.charges.length).toBe(before);

      const round2 = expectInputRequired(
        await callTool(url, 'upgrade-plan', { userId: 'u-42' }, {
          extra: {
            inputResponses: { 'elicitation-1': { action: 'accept', content: { plan: 'team' } } },
            requestState: round1.requestState,
          },
        }),
      );
      expect(round2.inputRequests).toEqual({
        'elicitation-2': {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Confirm upgrade to team?',
            requestedSchema: {
              type: 'object',
              properties: { confirmed: { type: 'boolean', title: 'I understand the new price' } },
              required: ['confirmed'],
            },
          },
        },
      });
      expect(round2.requestState).not.toBe(round1.requestState);
      expect(billing.charges.length).toBe(before);

      const round3 = await callTool(url, 'upgrade-plan', { userId: 'u-42' }, {
        extra: {
          inputResponses: { 'elicitation-2': { action: 'accept', content: { confirmed: true } } },
          requestState: round2.requestState,
        },
      });
      const result = expectComplete(round3);
      expect(result.structuredContent).toEqual({ upgraded: true, plan: 'team' });
      expect(billing.charges.slice(before)).toEqual([{ userId: 'u-42', plan: 'team' }]);
      expect(billing.charges.length).toBe(before + 1);
    });

    it('each requestState differs, even for the same round asked twice (fresh nonce)', async () => {
      const a = expectInputRequired(await callTool(url, 'upgrade-plan', { userId: 'u-1' }));
      const b = expectInputRequired(await callTool(url, 'upgrade-plan', { userId: 'u-1' }));
      expect(a.requestState).not.toBe(b.requestState);
    });

    it('a cancel at the first question ends the call without a charge', async () => {
      const billing = app.get(BillingService);
      const before = billing.charges.length;
      const result = await client.callTool('upgrade-plan', { userId: 'u-7' }, { answer: [{ action: 'cancel' }] });
      expect(result.structuredContent).toEqual({ upgraded: false, reason: 'cancelled' });
      expect(billing.charges.length).toBe(before);
    });
  });

  describe('wizard: three rounds with progress', () => {
    it('replays the tool from the top on each round, sends each progress step once, and completes on the third', async () => {
      const round1Reply = await callTool(url, 'wizard', {}, { progressToken: 'wiz' });
      expect(round1Reply.contentType).toBe('text/event-stream');
      expect(progressParams(round1Reply)).toEqual([{ progressToken: 'wiz', progress: 1, total: 3, message: 'started' }]);
      const round1 = expectInputRequired(round1Reply);
      expect(round1.inputRequests).toEqual({
        'elicitation-1': {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Step 1: project name?',
            requestedSchema: {
              type: 'object',
              properties: { project: { type: 'string', title: 'Project name' } },
              required: ['project'],
            },
          },
        },
      });

      const round2Reply = await callTool(url, 'wizard', {}, {
        progressToken: 'wiz',
        extra: {
          inputResponses: { 'elicitation-1': { action: 'accept', content: { project: 'apollo' } } },
          requestState: round1.requestState,
        },
      });
      // The replayed emit(1) is left out: round 1 sent it.
      expect(progressParams(round2Reply)).toEqual([{ progressToken: 'wiz', progress: 2, total: 3, message: 'named' }]);
      const round2 = expectInputRequired(round2Reply);
      expect(Object.keys(round2.inputRequests)).toEqual(['elicitation-2']);
      expect(round2.inputRequests['elicitation-2'].params.message).toBe('Step 2: language?');
      expect(round2.inputRequests['elicitation-2'].params.requestedSchema.properties.language).toMatchObject({ type: 'string' });
      expect(round2.requestState).not.toBe(round1.requestState);

      const round3Reply = await callTool(url, 'wizard', {}, {
        progressToken: 'wiz',
        extra: {
          inputResponses: { 'elicitation-2': { action: 'accept', content: { language: 'java' } } },
          requestState: round2.requestState,
        },
      });
      expect(progressParams(round3Reply)).toEqual([{ progressToken: 'wiz', progress: 3, total: 3, message: 'done' }]);
      expect(expectComplete(round3Reply).structuredContent).toEqual({ project: 'apollo', language: 'java' });
    });

    const step1Answer = { 'elicitation-1': { action: 'accept', content: { project: 'apollo' } } };

    it('sends a step an earlier round reached without a progressToken: the client was not shown it', async () => {
      const round1Reply = await callTool(url, 'wizard', {});
      expect(round1Reply.contentType).toContain('application/json');
      const round1 = expectInputRequired(round1Reply);
      const round2Reply = await callTool(url, 'wizard', {}, { progressToken: 'late', extra: { inputResponses: step1Answer, requestState: round1.requestState } });
      expect(progressParams(round2Reply).map((params) => (params as Msg).progress)).toEqual([1, 2]);
      const round2 = expectInputRequired(round2Reply);
      const round3Reply = await callTool(url, 'wizard', {}, { progressToken: 'late', extra: { inputResponses: { 'elicitation-2': { action: 'accept', content: { language: 'ts' } } }, requestState: round2.requestState } });
      expect(progressParams(round3Reply).map((params) => (params as Msg).progress)).toEqual([3]);
      expect(expectComplete(round3Reply).structuredContent).toEqual({ project: 'apollo', language: 'ts' });
    });

    it('a question asked again (a malformed answer) repeats no progress, and the next round sends only the new step', async () => {
      const round1 = expectInputRequired(await callTool(url, 'wizard', {}, { progressToken: 'again' }));
      const againReply = await callTool(url, 'wizard', {}, {
        progressToken: 'again',
        extra: { inputResponses: { 'elicitation-1': { action: 'accept', content: { project: 42 } } }, requestState: round1.requestState },
      });
      expect(againReply.notifications).toEqual([]);
      const again = expectInputRequired(againReply);
      expect(Object.keys(again.inputRequests)).toEqual(['elicitation-1']);
      const round2Reply = await callTool(url, 'wizard', {}, { progressToken: 'again', extra: { inputResponses: step1Answer, requestState: again.requestState } });
      expect(progressParams(round2Reply).map((params) => (params as Msg).progress)).toEqual([2]);
    });
  });

  describe('several input requests in one round: ctx.requestInputs()', () => {
    const allCaps = { elicitation: {}, sampling: {}, roots: {} };

    it('asks elicitation, sampling and roots together and returns all answers on the retry', async () => {
      const round1 = expectInputRequired(await callTool(url, 'multi-input', {}, { capabilities: allCaps }));
      expect(round1.inputRequests).toEqual({
        github_login: {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Please provide your GitHub username',
            requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          },
        },
        capital_of_france: {
          method: 'sampling/createMessage',
          params: {
            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
            maxTokens: 100,
          },
        },
        client_roots: { method: 'roots/list', params: {} },
      });
      const inputResponses = {
        github_login: { action: 'accept', content: { name: 'octocat' } },
        capital_of_france: {
          role: 'assistant',
          content: { type: 'text', text: 'Paris.' },
          model: 'claude-3-sonnet-20240307',
          stopReason: 'endTurn',
        },
        client_roots: { roots: [{ uri: 'file:///home/user/proj', name: 'Proj' }] },
      };
      const reply = await callTool(url, 'multi-input', {}, {
        capabilities: allCaps,
        extra: { inputResponses, requestState: round1.requestState },
      });
      expect(expectComplete(reply).structuredContent).toEqual({ answers: inputResponses });
    });

    it('a partial answer (one key missing) asks for the whole round again', async () => {
      const round1 = expectInputRequired(await callTool(url, 'multi-input', {}, { capabilities: allCaps }));
      const reply = await callTool(url, 'multi-input', {}, {
        capabilities: allCaps,
        extra: {
          inputResponses: { github_login: { action: 'accept', content: { name: 'octocat' } } },
          requestState: round1.requestState,
        },
      });
      const again = expectInputRequired(reply);
      expect(Object.keys(again.inputRequests).sort()).toEqual(['capital_of_france', 'client_roots', 'github_login']);
    });

    it('without the roots capability: -32021 naming roots only', async () => {
      const reply = await callTool(url, 'multi-input', {}, { capabilities: { elicitation: {}, sampling: {} } });
      expect(reply.status).toBe(400);
      expect(reply.contentType).toBe('application/json');
      expect(reply.response.result).toBeUndefined();
      expect(reply.response.error.code).toBe(-32021);
      expect(reply.response.error.data).toEqual({ requiredCapabilities: { roots: {} } });
    });
  });

  describe('missing client capability', () => {
    it('elicit() without the elicitation capability is -32021, HTTP 400, naming elicitation', async () => {
      const reply = await callTool(url, 'onboard', {}, { capabilities: {} });
      expect(reply.status).toBe(400);
      expect(reply.contentType).toBe('application/json');
      expect(reply.response.result).toBeUndefined();
      expect(reply.response.error.code).toBe(-32021);
      expect(reply.response.error.data).toEqual({ requiredCapabilities: { elicitation: {} } });
      expect(reply.response.error.message).toMatch(/elicitation/);
    });

    it('a sampling request without the sampling capability is -32021 naming sampling', async () => {
      const refusal = client.callTool('ask-model', {}, { capabilities: { elicitation: {} } });
      await expect(refusal).rejects.toMatchObject({ code: -32021, httpStatus: 400, data: { requiredCapabilities: { sampling: {} } }, message: expect.stringMatching(/sampling/) });
    });

    it('with the sampling capability the same tool asks, and gets the answer', async () => {
      const asked: string[] = [];
      const sampled = { role: 'assistant', content: { type: 'text', text: 'Rome.' }, model: 'test-model' };
      const result = await client.callTool('ask-model', {}, {
        capabilities: { sampling: {} },
        answer: (question, key) => {
          asked.push(`${key}: ${question.method}`);
          return sampled;
        },
      });
      expect(asked).toEqual(['capital: sampling/createMessage']);
      expect(result.structuredContent).toEqual({ answers: { capital: sampled } });
    });
  });

  describe('dispatch-only rules', () => {
    it('elicit() after the handler settled rejects with a clear error', async () => {
      const before = lateState.errors.length;
      const reply = await callTool(url, 'late-elicit', {});
      expect(expectComplete(reply).content).toEqual([{ type: 'text', text: 'returned early' }]);
      await until(() => lateState.errors.length > before, "the detached elicit()'s failure", () => lateState);
      expect(lateState.errors[before]).toMatch(/after the handler settled/);
    });

    it('a swallowed signal (broad try/catch) still yields input_required', async () => {
      const entries = runState.swallowEntries;
      const reply = await callTool(url, 'swallow', {});
      const result = expectInputRequired(reply);
      expect(result.inputRequests).toEqual({
        'elicitation-1': {
          method: 'elicitation/create',
          params: {
            mode: 'form',
            message: 'Your name?',
            requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] },
          },
        },
      });
      expect(runState.swallowEntries).toBe(entries + 1);
      // Answered, it completes normally.
      const done = await callTool(url, 'swallow', {}, {
        extra: { inputResponses: { 'elicitation-1': { action: 'accept', content: { name: 'Bo' } } }, requestState: result.requestState },
      });
      expect(expectComplete(done).content).toEqual([{ type: 'text', text: 'hello Bo' }]);
    });

    it('the isInputRequiredSignal rethrow pattern asks, then completes', async () => {
      const asked: string[] = [];
      const done = await client.callTool('rethrow', {}, {
        answer: (_question, key) => {
          asked.push(key);
          return { action: 'accept', content: { name: 'Cy' } };
        },
      });
      expect(asked).toEqual(['elicitation-1']);
      expect(done.content).toEqual([{ type: 'text', text: 'hello Cy' }]);
    });
  });

  describe('lenient input', () => {
    const answer = { user_name: { action: 'accept', content: { name: 'Ada' } } };

    it('asks under the explicit key', async () => {
      const result = expectInputRequired(await callTool(url, 'keyed', {}));
      expect(Object.keys(result.inputRequests)).toEqual(['user_name']);
      expect(result.inputRequests.user_name.params.message).toBe('What is your name?');
    });

    it('inputResponses without requestState are ignored: the question is asked (answers count only for questions the server asked)', async () => {
      const reply = await callTool(url, 'keyed', {}, { extra: { inputResponses: answer } });
      expect(Object.keys(expectInputRequired(reply).inputRequests)).toEqual(['user_name']);
    });

    it('with mrtr.acceptFirstRoundWithoutState, a first answer without requestState completes (as the conformance suite sends it)', async () => {
      const { app: lenient, url: lenientUrl } = await startInteractiveApp({ mrtr: { acceptFirstRoundWithoutState: true } });
      try {
        const reply = await callTool(lenientUrl, 'keyed', {}, { extra: { inputResponses: answer } });
        expect(expectComplete(reply).content).toEqual([{ type: 'text', text: 'name=Ada' }]);
        const decline = await callTool(lenientUrl, 'keyed', {}, { extra: { inputResponses: { user_name: { action: 'decline' } } } });
        expect(expectComplete(decline).content).toEqual([{ type: 'text', text: 'action=decline' }]);
      } finally {
        await lenient.close();
      }
    });

    it('inputResponses: null asks again (fresh input_required)', async () => {
      const first = expectInputRequired(await callTool(url, 'keyed', {}));
      const reply = await callTool(url, 'keyed', {}, { extra: { inputResponses: null, requestState: first.requestState } });
      const again = expectInputRequired(reply);
      expect(again.inputRequests).toEqual(first.inputRequests);
      expect(again.requestState).not.toBe(first.requestState);
    });

    it('inputResponses: null without requestState asks again', async () => {
      const reply = await callTool(url, 'keyed', {}, { extra: { inputResponses: null } });
      expect(Object.keys(expectInputRequired(reply).inputRequests)).toEqual(['user_name']);
    });

    it('a wrong-typed answer ({user_name: 12345}) asks again, never a complete result or a 500', async () => {
      const first = expectInputRequired(await callTool(url, 'keyed', {}));
      const reply = await callTool(url, 'keyed', {}, {
        extra: { inputResponses: { user_name: 12345 }, requestState: first.requestState },
      });
      expect(reply.status).not.toBe(500);
      const again = expectInputRequired(reply);
      expect(again.inputRequests).toEqual(first.inputRequests);
    });

    it('a wrong-typed answer content ({name: 42}) asks again', async () => {
      const first = expectInputRequired(await callTool(url, 'keyed', {}));
      const reply = await callTool(url, 'keyed', {}, {
        extra: { inputResponses: { user_name: { action: 'accept', content: { name: 42 } } }, requestState: first.requestState },
      });
      expect(Object.keys(expectInputRequired(reply).inputRequests)).toEqual(['user_name']);
    });

    it('inputResponses that is an array or a string asks again', async () => {
      for (const inputResponses of [[answer.user_name], 'user_name']) {
        const reply = await callTool(url, 'keyed', {}, { extra: { inputResponses } });
        expect(reply.status).not.toBe(500);
        expect(Object.keys(expectInputRequired(reply).inputRequests)).toEqual(['user_name']);
      }
    });

    it('unknown extra keys in inputResponses and unknown params are ignored', async () => {
      const first = expectInputRequired(await callTool(url, 'keyed', {}));
      const reply = await callTool(url, 'keyed', {}, {
        extra: {
          inputResponses: { ...answer, unrelated: { action: 'accept', content: { x: 1 } }, junk: 7 },
          requestState: first.requestState,
          someFutureParam: { nested: true },
        },
      });
      expect(expectComplete(reply).content).toEqual([{ type: 'text', text: 'name=Ada' }]);
    });

    it('a decline with requestState is answered by the tool', async () => {
      const declined = await client.callTool('keyed', {}, { answer: [{ action: 'decline' }] });
      expect(declined.content).toEqual([{ type: 'text', text: 'action=decline' }]);
    });
  });
});

/** Records what the application logs, by level. */
class RecordingLogger implements LoggerService {
  readonly errors: string[] = [];
  readonly warnings: string[] = [];
  log(): void {}
  error(message: unknown, ...rest: unknown[]): void {
    this.errors.push([message, ...rest].map((part) => (part instanceof Error ? `${part.name}: ${part.message}` : String(part))).join(' '));
  }
  warn(message: unknown): void {
    this.warnings.push(String(message));
  }
}

describe('elicitation logging (e2e)', () => {
  const logger = new RecordingLogger();
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    ({ app, url } = await startInteractiveApp({ logger, mrtr: { secret: Buffer.alloc(32, 7).toString('base64') } }));
  });

  afterAll(async () => {
    await app?.close();
  });

  it('an input_required round is control flow: nothing is logged as an error', async () => {
    const reply = await callTool(url, 'onboard', {});
    expect(expectInputRequired(reply).inputRequests).toEqual({ 'elicitation-1': ONBOARD_REQUEST });
    expect(logger.errors).toEqual([]);
  });

  it('a swallowed signal logs one warning that names the tool and the rethrow rule', async () => {
    const before = logger.warnings.length;
    expectInputRequired(await callTool(url, 'swallow', {}));
    const added = logger.warnings.slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/swallow/);
    expect(added[0]).toMatch(/isInputRequiredSignal/);
  });
});
