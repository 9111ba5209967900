/** The sample's upgrade-plan flow over HTTP, for the one-time requestState tests. */
import { expect } from '@jest/globals';
import { callTool, type McpReply, type Msg } from './interactive-http.js';

export const PLAN = { 'elicitation-1': { action: 'accept', content: { plan: 'pro' } } };
export const CONFIRM = { 'elicitation-2': { action: 'accept', content: { confirmed: true } } };
export const REUSED = /requestState was already used: start the call over without requestState/;

export function inputRequired(reply: McpReply, key: string): Msg {
  expect(reply.response.error).toBeUndefined();
  expect(reply.response.result.resultType).toBe('input_required');
  expect(Object.keys(reply.response.result.inputRequests)).toEqual([key]);
  return reply.response.result;
}

/** Asserts the -32602 of a requestState used a second time. */
export function reused(reply: McpReply): void {
  expect(reply.status).toBe(200);
  expect(reply.response.result).toBeUndefined();
  expect(reply.response.error.code).toBe(-32602);
  expect(reply.response.error.message).toMatch(REUSED);
}

/** Rounds 1 and 2 of upgrade-plan on `url`: the token that round 3 (which charges) must carry. */
export async function finalRoundToken(url: string, userId: string): Promise<string> {
  const round1 = inputRequired(await callTool(url, 'upgrade-plan', { userId }), 'elicitation-1');
  const round2 = inputRequired(
    await callTool(url, 'upgrade-plan', { userId }, { extra: { inputResponses: PLAN, requestState: round1.requestState } }),
    'elicitation-2',
  );
  return round2.requestState;
}
