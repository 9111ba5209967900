import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FeaturesCompletionModule, FeaturesNoCompletionModule, MANY } from './src/features-completion.fixture.js';
import { callMcp, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { assertErrorResponse, assertResultResponse } from './support/wire-schema.js';

async function complete(url: string, params: Record<string, unknown>): Promise<Json> {
  const response = await callMcp(url, 'completion/complete', params);
  expect(response.status).toBe(200);
  assertResultResponse(response.body, 'CompleteResult');
  expect(response.body.result.resultType).toBe('complete');
  return response.body.result.completion;
}

const prompt = (argument: string, value: string, context?: Record<string, string>) => ({
  ref: { type: 'ref/prompt', name: 'order' },
  argument: { name: argument, value },
  ...(context ? { context: { arguments: context } } : {}),
});

describe('completion/complete (features-completion fixture)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([FeaturesCompletionModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('advertises the completions capability', async () => {
    const response = await callMcp(started.url, 'server/discover');
    assertResultResponse(response.body, 'DiscoverResult');
    expect(response.body.result.capabilities.completions).toEqual({});
  });

  it('completes an enum-typed prompt argument from its values, by prefix', async () => {
    expect(await complete(started.url, prompt('fruit', 'ap'))).toEqual({ values: ['apple', 'apricot'] });
    expect(await complete(started.url, prompt('fruit', ''))).toEqual({ values: ['apple', 'apricot', 'banana', 'cherry'] });
    expect(await complete(started.url, prompt('fruit', 'AP'))).toEqual({ values: ['apple', 'apricot'] });
    expect(await complete(started.url, prompt('fruit', 'x'))).toEqual({ values: [] });
  });

  it('an @McpComplete method sees context.arguments', async () => {
    expect(await complete(started.url, prompt('city', 'l', { country: 'fr' }))).toEqual({ values: ['lyon', 'lille'] });
    expect(await complete(started.url, prompt('city', 'b', { country: 'de' }))).toEqual({ values: ['berlin', 'bonn'] });
    expect(await complete(started.url, prompt('city', 'l'))).toEqual({ values: ['lyon', 'lille', 'lübeck'] });
    expect(await complete(started.url, prompt('city', 'l', { country: 'it' }))).toEqual({ values: [] });
  });

  it('sends at most 100 of 150 values, with total and hasMore', async () => {
    const completion = await complete(started.url, prompt('item', 'item-'));
    expect(completion.values).toEqual(MANY.slice(0, 100));
    expect(completion.total).toBe(150);
    expect(completion.hasMore).toBe(true);
  });

  it('no total/hasMore when everything fits', async () => {
    expect(await complete(started.url, prompt('item', 'item-14'))).toEqual({
      values: ['item-140', 'item-141', 'item-142', 'item-143', 'item-144', 'item-145', 'item-146', 'item-147', 'item-148', 'item-149'],
    });
  });

  it('a free-text argument without a source completes to nothing', async () => {
    expect(await complete(started.url, prompt('note', 'a'))).toEqual({ values: [] });
  });

  it('completes an enum template variable', async () => {
    const completion = await complete(started.url, {
      ref: { type: 'ref/resource', uri: 'shelf://{fruit}/{size}' },
      argument: { name: 'fruit', value: 'b' },
    });
    expect(completion).toEqual({ values: ['banana'] });
  });

  it('a template @McpComplete source gets context and reports its own total/hasMore', async () => {
    const banana = await complete(started.url, {
      ref: { type: 'ref/resource', uri: 'shelf://{fruit}/{size}' },
      argument: { name: 'size', value: '' },
      context: { arguments: { fruit: 'banana' } },
    });
    expect(banana).toEqual({ values: ['bunch', 'single'], total: 40, hasMore: true });
    const other = await complete(started.url, {
      ref: { type: 'ref/resource', uri: 'shelf://{fruit}/{size}' },
      argument: { name: 'size', value: 's' },
      context: { arguments: { fruit: 'apple' } },
    });
    expect(other).toEqual({ values: ['small'], total: 40, hasMore: true });
  });

  it('an unknown prompt is -32602', async () => {
    const response = await callMcp(started.url, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'nope' },
      argument: { name: 'x', value: '' },
    });
    assertErrorResponse(response.body, -32602);
    expect(response.body.error.message).toBe('Unknown prompt: nope');
  });

  it('an unknown template is -32602 with data.uri', async () => {
    const response = await callMcp(started.url, 'completion/complete', {
      ref: { type: 'ref/resource', uri: 'nope://{x}' },
      argument: { name: 'x', value: '' },
    });
    assertErrorResponse(response.body, -32602);
    expect(response.body.error.data).toEqual({ uri: 'nope://{x}' });
  });

  it('a malformed request is -32602', async () => {
    const response = await callMcp(started.url, 'completion/complete', { ref: { type: 'ref/prompt', name: 'order' } });
    assertErrorResponse(response.body, -32602);
    const badRef = await callMcp(started.url, 'completion/complete', { ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } });
    assertErrorResponse(badRef.body, -32602);
  });
});

describe('completion/complete when nothing completes', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([FeaturesNoCompletionModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  it('does not advertise completions', async () => {
    const response = await callMcp(started.url, 'server/discover');
    assertResultResponse(response.body, 'DiscoverResult');
    expect(response.body.result.capabilities).not.toHaveProperty('completions');
    expect(Object.keys(response.body.result.capabilities).sort()).toEqual(['prompts', 'resources', 'tools']);
  });

  it('answers completion/complete with -32601 (HTTP 404)', async () => {
    const response = await callMcp(started.url, 'completion/complete', {
      ref: { type: 'ref/prompt', name: 'plain' },
      argument: { name: 'topic', value: 'a' },
    });
    expect(response.status).toBe(404);
    assertErrorResponse(response.body, -32601);
  });
});
