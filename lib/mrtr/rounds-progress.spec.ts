import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type { InputRequests } from '../protocol/wire.types.js';
import { InMemoryMcpStore } from '../store/in-memory-mcp-store.js';
import { InputRequiredSignal } from './input-required.signal.js';
import { InputRounds, type CallRounds, type RequestStateServices } from './input-rounds.js';
import { RequestStateCodec } from './request-state.codec.js';
import { TaskRounds } from './task-rounds.js';

const CALL = { method: 'tools/call', target: 'wizard', arguments: {} };
const CAPS = { elicitation: {} };
const form = (message: string) => ({ type: 'object' as const, properties: { [message]: { type: 'string' as const } }, required: [message] });
const NAME: InputRequests = { 'elicitation-1': { method: 'elicitation/create', params: { message: 'name', requestedSchema: form('name') } } };
const LANGUAGE: InputRequests = { 'elicitation-2': { method: 'elicitation/create', params: { message: 'language', requestedSchema: form('language') } } };
const ANSWERS = {
  'elicitation-1': { action: 'accept', content: { name: 'atlas' } },
  'elicitation-2': { action: 'accept', content: { language: 'ts' } },
};

function services(): RequestStateServices {
  return { codec: new RequestStateCodec(randomBytes(32), 300_000), store: new InMemoryMcpStore() };
}

/** Asks both questions; the signal of the first one left unanswered. */
function askAll(rounds: CallRounds): InputRequiredSignal {
  try {
    rounds.ask(NAME);
    rounds.ask(LANGUAGE);
  } catch (error) {
    if (error instanceof InputRequiredSignal) return error;
    throw error;
  }
  throw new Error('every question was answered');
}

describe('what the rounds tell of progress shown in earlier rounds', () => {
  describe('InputRounds: the highest value sent, sealed in requestState', () => {
    it('a first round has shown nothing; its token carries what it sent', () => {
      const state = services();
      const first = new InputRounds(state, CALL, {}, CAPS);
      expect(first.progressShownBefore(0)).toBe(false);
      const token = first.toInputRequiredResult(askAll(first), 1).requestState!;
      expect(state.codec.decode(token).progressShown).toBe(1);

      const second = new InputRounds(state, CALL, { inputResponses: ANSWERS, requestState: token }, CAPS);
      expect([0, 1, 1.5, 2].map((value) => second.progressShownBefore(value))).toEqual([true, true, false, false]);
      const next = second.toInputRequiredResult(askAll(second), 2).requestState!;
      expect(state.codec.decode(next).progressShown).toBe(2);
    });

    it('a round that sent nothing (no progressToken, or no new step) hands on what the earlier rounds showed', () => {
      const state = services();
      const first = new InputRounds(state, CALL, {}, CAPS);
      const token = first.toInputRequiredResult(askAll(first), 3).requestState!;
      const again = new InputRounds(state, CALL, { requestState: token }, CAPS);
      expect(state.codec.decode(again.toInputRequiredResult(askAll(again)).requestState!).progressShown).toBe(3);
      // Nor does a lower value sent past the filter (before the rounds were open) lower the mark.
      expect(state.codec.decode(again.toInputRequiredResult(askAll(again), 1).requestState!).progressShown).toBe(3);
    });

    it('a token without the mark (nothing sent, or sealed before the mark existed) has shown nothing', () => {
      const state = services();
      const first = new InputRounds(state, CALL, {}, CAPS);
      const token = first.toInputRequiredResult(askAll(first)).requestState!;
      expect('progressShown' in state.codec.decode(token)).toBe(false);
      expect(new InputRounds(state, CALL, { requestState: token }, CAPS).progressShownBefore(0)).toBe(false);
    });
  });

  describe('TaskRounds: by position, as the task record keeps answers only', () => {
    it('progress before the question the last run ended on was shown by that run, whatever its value', () => {
      expect(new TaskRounds([], CAPS).progressShownBefore()).toBe(false);
      const first = new TaskRounds([], CAPS);
      const signal = askAll(first);
      const rounds = new TaskRounds([{ fingerprint: signal.fingerprint, responses: { 'elicitation-1': ANSWERS['elicitation-1'] } }], CAPS);
      expect(rounds.progressShownBefore()).toBe(true);
      expect(rounds.ask(NAME)).toEqual({ 'elicitation-1': ANSWERS['elicitation-1'] });
      expect(rounds.progressShownBefore()).toBe(false);
    });
  });
});
