import { describe, expect, it, jest } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { InternalError, InvalidParamsError } from '../protocol/mcp.error.js';
import type { InputRequests } from '../protocol/wire.types.js';
import { InMemoryMcpStore } from '../store/in-memory-mcp-store.js';
import type { McpStore } from '../store/mcp-store.js';
import { StoreFullError } from '../store/store-limits.js';
import { InputRequiredSignal } from './input-required.signal.js';
import { InputRounds, REQUEST_STATE_REUSED, type RequestStateServices } from './input-rounds.js';
import { RequestStateCodec } from './request-state.codec.js';

const TTL = 300_000;
const CALL = { method: 'tools/call', target: 'upgrade-plan', arguments: { userId: 'u1' } };
const CAPS = { elicitation: {} };
const PLAN: InputRequests = {
  'elicitation-1': { method: 'elicitation/create', params: { message: 'Pick a plan', requestedSchema: { type: 'object', properties: { plan: { type: 'string' } }, required: ['plan'] } } },
};
const CONFIRM: InputRequests = {
  'elicitation-2': { method: 'elicitation/create', params: { message: 'Confirm?', requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } } },
};
const ANSWERS = {
  'elicitation-1': { action: 'accept', content: { plan: 'pro' } },
  'elicitation-2': { action: 'accept', content: { ok: true } },
};

function setup(overrides: Partial<RequestStateServices> = {}) {
  const clock = { now: 1_750_000_000_000 };
  const services: RequestStateServices = {
    codec: new RequestStateCodec(randomBytes(32), TTL, () => clock.now),
    store: new InMemoryMcpStore({ clock: () => clock.now }),
    ...overrides,
  };
  return { clock, services };
}

/** Runs the upgrade-plan questions on `rounds`: the answers, or the input_required result that ended the run. */
function runUpgrade(rounds: InputRounds) {
  try {
    rounds.ask(PLAN);
    rounds.ask(CONFIRM);
    return { completed: true as const };
  } catch (error) {
    if (!(error instanceof InputRequiredSignal)) throw error;
    return { completed: false as const, result: rounds.toInputRequiredResult(error) };
  }
}

/** Round 1 (no state), then the token the server issues for round 2. */
function round2Token(services: RequestStateServices): string {
  const first = runUpgrade(new InputRounds(services, CALL, {}, CAPS));
  const second = runUpgrade(new InputRounds(services, CALL, { inputResponses: ANSWERS, requestState: first.result!.requestState }, CAPS));
  expect(Object.keys(second.result!.inputRequests!)).toEqual(['elicitation-2']);
  return second.result!.requestState!;
}

describe('InputRounds: one-time requestState', () => {
  it('claims a requestState once, for the time it has left', async () => {
    const { services, clock } = setup();
    const claim = jest.spyOn(services.store, 'claimOnce');
    const token = round2Token(services);
    clock.now += 1_000;
    await new InputRounds(services, CALL, { inputResponses: ANSWERS, requestState: token }, CAPS).claimState();
    expect(claim).toHaveBeenLastCalledWith(expect.stringMatching(/^request-state:[A-Za-z0-9_-]{22}$/), TTL - 1_000, { kind: 'claim' });

    const replay = new InputRounds(services, CALL, { inputResponses: ANSWERS, requestState: token }, CAPS);
    const refused = await replay.claimState().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidParamsError);
    expect((refused as InvalidParamsError).message).toBe(REQUEST_STATE_REUSED);
  });

  it('claims nothing for a call without requestState', async () => {
    const { services } = setup();
    const claim = jest.spyOn(services.store, 'claimOnce');
    await new InputRounds(services, CALL, { inputResponses: ANSWERS }, CAPS).claimState();
    expect(claim).not.toHaveBeenCalled();
  });

  it('with the claims budget full, a fresh token is refused as retryable (-31503) and a spent one is still spent', async () => {
    const clock = { now: 1_750_000_000_000 };
    const { services } = setup({ store: new InMemoryMcpStore({ maxEntries: 10, budgets: { claim: 2 }, clock: () => clock.now }) });
    const spent = round2Token(services);
    await new InputRounds(services, CALL, { inputResponses: ANSWERS, requestState: spent }, CAPS).claimState();
    await services.store.claimOnce('request-state:other', TTL, { kind: 'claim' });
    const fresh = round2Token(services);
    const full = await new InputRounds(services, CALL, { inputResponses: ANSWERS, requestState: fresh }, CAPS).claimState().catch((error: unknown) => error);
    expect(full).toBeInstanceOf(StoreFullError);
    expect((full as StoreFullError).toJsonRpc()).toMatchObject({ code: -31503, data: { retryAfterMs: TTL } });
    expect((full as StoreFullError).httpStatus).toBe(503);
    const replay = await new InputRounds(services, CALL, { inputResponses: ANSWERS, requestState: spent }, CAPS).claimState().catch((error: unknown) => error);
    expect((replay as InvalidParamsError).message).toBe(REQUEST_STATE_REUSED);
  });

  it('turns a failing store into a generic -32603', async () => {
    const broken: McpStore = {
      claimOnce: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
      get: () => Promise.resolve(undefined),
      set: () => Promise.resolve(),
      create: () => Promise.resolve(true),
      compareAndSet: () => Promise.resolve(true),
      release: () => Promise.resolve(),
      delete: () => Promise.resolve(),
    };
    const { services } = setup();
    const token = round2Token(services);
    const rounds = new InputRounds({ ...services, store: broken }, CALL, { inputResponses: ANSWERS, requestState: token }, CAPS);
    const error = await rounds.claimState().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalError);
    expect((error as InternalError).toJsonRpc()).toEqual({ code: -32603, message: 'Internal error' });
  });
});

describe('InputRounds: answers only for questions the server asked', () => {
  it('ignores inputResponses without requestState: the first question comes back', () => {
    const { services } = setup();
    const run = runUpgrade(new InputRounds(services, CALL, { inputResponses: ANSWERS }, CAPS));
    expect(run.completed).toBe(false);
    expect(Object.keys(run.result!.inputRequests!)).toEqual(['elicitation-1']);
  });

  it('with requestState, takes answers for the pending question only, not pre-answered later ones', () => {
    const { services } = setup();
    const first = runUpgrade(new InputRounds(services, CALL, {}, CAPS));
    const second = runUpgrade(new InputRounds(services, CALL, { inputResponses: ANSWERS, requestState: first.result!.requestState }, CAPS));
    expect(second.completed).toBe(false);
    expect(Object.keys(second.result!.inputRequests!)).toEqual(['elicitation-2']);
  });

  it('acceptFirstRoundWithoutState takes the first question\'s answers, and only those', () => {
    const { services } = setup({ acceptFirstRoundWithoutState: true });
    const run = runUpgrade(new InputRounds(services, CALL, { inputResponses: ANSWERS }, CAPS));
    expect(run.completed).toBe(false);
    expect(Object.keys(run.result!.inputRequests!)).toEqual(['elicitation-2']);
  });

  it('completes on the round that answers the pending question', () => {
    const { services } = setup();
    const token = round2Token(services);
    expect(runUpgrade(new InputRounds(services, CALL, { inputResponses: ANSWERS, requestState: token }, CAPS)).completed).toBe(true);
  });
});
