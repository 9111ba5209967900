import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FEATURES_PNG, FeaturesPromptsModule } from './src/features-prompts.fixture.js';
import { callMcp, startApp, type Json, type StartedApp } from './support/mcp-http.js';
import { assertErrorResponse, assertMatchesDef, assertResultResponse } from './support/wire-schema.js';

const SERVER_META = { 'io.modelcontextprotocol/serverInfo': { name: 'features-prompts', version: '1.0.0' } };

async function getPrompt(url: string, name: string, args?: Record<string, unknown>): Promise<Json> {
  const response = await callMcp(url, 'prompts/get', args === undefined ? { name } : { name, arguments: args });
  expect(response.status).toBe(200);
  assertResultResponse(response.body, 'GetPromptResult');
  expect(response.body.result._meta).toEqual(SERVER_META);
  const { _meta, ...result } = response.body.result;
  return result;
}

async function getPromptError(url: string, name: string, args?: Record<string, unknown>): Promise<Json> {
  const response = await callMcp(url, 'prompts/get', args === undefined ? { name } : { name, arguments: args });
  assertErrorResponse(response.body, -32602);
  return response.body.error;
}

describe('prompts (features-prompts fixture, pageSize 2)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    started = await startApp([FeaturesPromptsModule]);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  describe('prompts/list', () => {
    let pages: Json[][];
    const all = () => pages.flat();

    beforeAll(async () => {
      pages = [];
      let cursor: string | undefined;
      for (let guard = 0; guard < 10; guard++) {
        const response = await callMcp(started.url, 'prompts/list', cursor === undefined ? {} : { cursor });
        expect(response.status).toBe(200);
        assertResultResponse(response.body, 'ListPromptsResult');
        const { result } = response.body;
        expect(result.ttlMs).toBe(0);
        expect(result.cacheScope).toBe('private');
        pages.push(result.prompts);
        cursor = result.nextCursor;
        if (cursor === undefined) break;
        expect(typeof cursor).toBe('string');
      }
    });

    it('pages through every prompt, two per page, in declaration order', () => {
      expect(pages.map((page) => page.map((prompt: Json) => prompt.name))).toEqual([
        ['greet', 'dialogue'],
        ['full', 'picture'],
        ['convert', 'summary'],
        ['seventh'],
      ]);
      for (const prompt of all()) assertMatchesDef(prompt, 'Prompt');
    });

    it('lists arguments with name, description and required; context parameters never appear', () => {
      const greet = all().find((prompt: Json) => prompt.name === 'greet');
      expect(greet).toEqual({
        name: 'greet',
        title: 'Greeting',
        description: 'Greets someone (string return)',
        arguments: [
          expect.objectContaining({ name: 'name', description: 'Who to greet', required: true }),
          { name: 'suffix', description: 'Appended text', required: false },
        ],
      });
    });

    it("lists an argument's title from @McpArg({ title })", () => {
      const greet = all().find((prompt: Json) => prompt.name === 'greet');
      expect(greet.arguments[0]).toEqual({ name: 'name', title: 'Name', description: 'Who to greet', required: true });
    });

    it('omits arguments for a prompt without any', () => {
      const dialogue = all().find((prompt: Json) => prompt.name === 'dialogue');
      expect(dialogue).toEqual({ name: 'dialogue', description: 'Strings and messages mixed (array return)' });
    });

    it('lists typed arguments and DTO fields', () => {
      const convert = all().find((prompt: Json) => prompt.name === 'convert');
      expect(convert.arguments).toEqual([
        { name: 'ratio', description: 'A number', required: true },
        { name: 'count', description: 'An integer', required: true },
        { name: 'loud', description: 'A boolean', required: true },
        { name: 'tone', description: 'An enum', required: true },
      ]);
      const summary = all().find((prompt: Json) => prompt.name === 'summary');
      expect(summary.arguments).toEqual([
        { name: 'topic', description: 'Topic to summarise', required: true },
        { name: 'sentences', description: 'How many sentences', required: true },
        { name: 'style', description: 'Style of the summary', required: false },
      ]);
    });

    it('rejects a cursor it did not issue with -32602', async () => {
      const response = await callMcp(started.url, 'prompts/list', { cursor: 'not-a-cursor' });
      assertErrorResponse(response.body, -32602);
    });
  });

  describe('prompts/get return shapes', () => {
    it('a string is one user text message', async () => {
      expect(await getPrompt(started.url, 'greet', { name: 'Ada' })).toEqual({
        resultType: 'complete',
        messages: [{ role: 'user', content: { type: 'text', text: 'Hello, Ada! (prompt greet)' } }],
      });
    });

    it('an optional argument is passed when given', async () => {
      const result = await getPrompt(started.url, 'greet', { name: 'Ada', suffix: '!!' });
      expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello, Ada!!! (prompt greet)' } }]);
    });

    it('an array of strings, messages and blocks keeps order and roles', async () => {
      expect(await getPrompt(started.url, 'dialogue')).toEqual({
        resultType: 'complete',
        messages: [
          { role: 'user', content: { type: 'text', text: 'first from user' } },
          { role: 'assistant', content: { type: 'text', text: 'reply from assistant' } },
          { role: 'user', content: { type: 'text', text: 'a bare block' } },
        ],
      });
    });

    it('a GetPromptResult is sent as is (with its description)', async () => {
      expect(await getPrompt(started.url, 'full')).toEqual({
        resultType: 'complete',
        description: 'A full result',
        messages: [{ role: 'user', content: { type: 'text', text: 'from a full result' } }],
      });
    });

    it('a content block is one user message', async () => {
      expect(await getPrompt(started.url, 'picture')).toEqual({
        resultType: 'complete',
        messages: [{ role: 'user', content: { type: 'image', data: FEATURES_PNG, mimeType: 'image/png' } }],
      });
    });
  });

  it('a prompt returning an unsupported shape is -32603 without internals', async () => {
    const response = await callMcp(started.url, 'prompts/get', { name: 'seventh' });
    assertErrorResponse(response.body, -32603);
    expect(response.body.error).toEqual({ code: -32603, message: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) });
  });

  describe('argument conversion', () => {
    it('converts number, integer, boolean and enum strings to their types', async () => {
      const result = await getPrompt(started.url, 'convert', { ratio: '2.5', count: '7', loud: 'true', tone: 'formal' });
      expect(JSON.parse(result.messages[0].content.text)).toEqual({
        ratio: 2.5,
        count: 7,
        loud: true,
        tone: 'formal',
        types: ['number', 'number', 'boolean', 'string'],
      });
    });

    it('converts "false" to false', async () => {
      const result = await getPrompt(started.url, 'convert', { ratio: '-1', count: '0', loud: 'false', tone: 'friendly' });
      expect(JSON.parse(result.messages[0].content.text)).toEqual({
        ratio: -1,
        count: 0,
        loud: false,
        tone: 'friendly',
        types: ['number', 'number', 'boolean', 'string'],
      });
    });

    it.each([
      ['ratio', { ratio: 'abc', count: '1', loud: 'true', tone: 'formal' }],
      ['count', { ratio: '1', count: '1.5', loud: 'true', tone: 'formal' }],
      ['loud', { ratio: '1', count: '1', loud: 'yes', tone: 'formal' }],
      ['tone', { ratio: '1', count: '1', loud: 'true', tone: 'rude' }],
    ])('a bad %s is -32602 naming the argument', async (argument, args) => {
      const error = await getPromptError(started.url, 'convert', args);
      expect(error.message).toContain(`"${argument}"`);
    });

    it('says what was wrong with a bad value', async () => {
      const error = await getPromptError(started.url, 'convert', { ratio: 'abc', count: '1', loud: 'true', tone: 'formal' });
      expect(error.message).toBe('Argument "ratio" must be a number; got "abc"');
      const enumError = await getPromptError(started.url, 'convert', { ratio: '1', count: '1', loud: 'true', tone: 'rude' });
      expect(enumError.message).toBe('Argument "tone" must be one of "friendly", "formal"');
    });

    it('a missing required argument is -32602 naming it', async () => {
      const error = await getPromptError(started.url, 'greet', {});
      expect(error.message).toBe('Missing required argument "name"');
      const noArguments = await getPromptError(started.url, 'greet');
      expect(noArguments.message).toBe('Missing required argument "name"');
    });

    it('an unknown prompt is -32602', async () => {
      const error = await getPromptError(started.url, 'no-such-prompt', {});
      expect(error.message).toBe('Unknown prompt: no-such-prompt');
    });
  });

  describe('DTO-based arguments', () => {
    it('converts and validates into a DTO instance', async () => {
      const result = await getPrompt(started.url, 'summary', { topic: 'MCP', sentences: '3' });
      expect(JSON.parse(result.messages[0].content.text)).toEqual({ isDto: true, topic: 'MCP', sentences: 3, style: null });
    });

    it('passes an optional DTO field', async () => {
      const result = await getPrompt(started.url, 'summary', { topic: 'MCP', sentences: '1', style: 'long' });
      expect(JSON.parse(result.messages[0].content.text)).toEqual({ isDto: true, topic: 'MCP', sentences: 1, style: 'long' });
    });

    it('completes an enum prompt argument and a DTO field restricted by @IsIn', async () => {
      const tone = await callMcp(started.url, 'completion/complete', { ref: { type: 'ref/prompt', name: 'convert' }, argument: { name: 'tone', value: 'f' } });
      assertResultResponse(tone.body, 'CompleteResult');
      expect(tone.body.result.completion).toEqual({ values: ['friendly', 'formal'] });
      const style = await callMcp(started.url, 'completion/complete', { ref: { type: 'ref/prompt', name: 'summary' }, argument: { name: 'style', value: 's' } });
      assertResultResponse(style.body, 'CompleteResult');
      expect(style.body.result.completion).toEqual({ values: ['short'] });
    });

    it('a non-integer DTO field is -32602 naming it', async () => {
      const error = await getPromptError(started.url, 'summary', { topic: 'MCP', sentences: 'three' });
      expect(error.message).toContain('sentences');
    });

    it('a class-validator failure is -32602 naming the field', async () => {
      const error = await getPromptError(started.url, 'summary', { topic: 'MCP', sentences: '9' });
      expect(error.message).toContain('sentences');
    });

    it('a missing required DTO field is -32602 naming it', async () => {
      const error = await getPromptError(started.url, 'summary', { sentences: '2' });
      expect(error.message).toContain('topic');
    });
  });
});
