import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Injectable, Module } from '@nestjs/common';
import * as v from 'valibot';
import { z } from 'zod';
import { McpModule, McpTool } from 'nest-mcp';
import { plain, postMcp, rpc, startApp, startupFailure, type StartedApp } from './support/mcp-http.js';
import { LogTranscript } from './support/log-transcript.js';
import { assertMatchesDef } from './support/wire-schema.js';
import { StandardSchemaFixtureModule } from './src/standard-schema.fixture.js';

type Answer = { action: 'accept'; content: Record<string, string | number | boolean> } | { action: 'decline' };

/** The calls every era makes the same way: the official client of that era behind one face. */
interface EraClient {
  listTools(): Promise<{ tools: Array<Record<string, any>> }>;
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, any>>;
  getPrompt(name: string, args: Record<string, string>): Promise<Record<string, any>>;
  answerWith(answer: () => Answer): void;
  close(): Promise<void>;
}

async function modernClient(url: string): Promise<EraClient> {
  const client = new ClientV2({ name: 'schemas-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new TransportV2(new URL(url)));
  return {
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    answerWith: (answer) => client.setRequestHandler('elicitation/create', async () => answer()),
    close: () => client.close(),
  };
}

async function legacyClient(url: string): Promise<EraClient> {
  const client = new ClientV1({ name: 'schemas-e2e-2025', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  await client.connect(new TransportV1(new URL(url)));
  return {
    listTools: () => client.listTools(),
    callTool: (name, args) => client.callTool({ name, arguments: args }),
    getPrompt: (name, args) => client.getPrompt({ name, arguments: args }),
    answerWith: (answer) => client.setRequestHandler(ElicitRequestSchema, async () => answer()),
    close: () => client.close(),
  };
}

const LIBRARIES = ['zod', 'valibot', 'arktype'] as const;

/** Each library's own messages, in its own order, each after the path it is about. */
const INVALID: Record<(typeof LIBRARIES)[number], string> = {
  zod: 'Invalid arguments: "city": Too small: expected string to have >=2 characters; "days": Too big: expected number to be <=7; "tag": Invalid input: expected string, received number',
  valibot: 'Invalid arguments: "city": Invalid length: Expected >=2 but received 1; "days": Invalid value: Expected <=7 but received 9; "tag": Invalid type: Expected string but received 7',
  arktype: 'Invalid arguments: "city" must be at least length 2 (was 1); "tag" must be a string (was a number); "days" must be at most 7 (was 9)',
};

describe('Standard Schema (Zod, Valibot, ArkType) tools, prompts and forms', () => {
  let started: StartedApp;
  const log = new LogTranscript();

  beforeAll(async () => {
    started = await startApp([StandardSchemaFixtureModule], '/mcp', [], log);
  });

  afterAll(async () => {
    await started?.app.close();
  });

  describe.each([
    ['2026-07-28', modernClient],
    ['2025-11-25', legacyClient],
  ])('with the official client of %s', (_era, connect) => {
    let client: EraClient;
    let tools: Array<Record<string, any>>;

    beforeAll(async () => {
      client = await connect(started.url);
      // Listing first: the clients check later results against the listed output schemas.
      ({ tools } = await client.listTools());
    });

    afterAll(async () => {
      await client?.close();
    });

    it.each(LIBRARIES)('lists the %s tool with the JSON Schemas its library converts to', (library) => {
      const tool = tools.find((entry) => entry.name === `forecast-${library}`)!;
      assertMatchesDef(plain(tool), 'Tool');
      expect(tool.inputSchema).toMatchObject({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 2 },
          days: { type: 'integer', minimum: 1, maximum: 7 },
          units: { enum: ['c', 'f'] },
          tag: { type: 'string' },
        },
      });
      // Defaulted properties may be left out, so only the others are required.
      expect([...tool.inputSchema.required].sort()).toEqual(['city', 'tag']);
      expect(tool.outputSchema).toMatchObject({
        type: 'object',
        properties: { city: { type: 'string' }, forecast: { type: 'array', items: { type: 'string' } } },
      });
      expect([...tool.outputSchema.required].sort()).toEqual(['city', 'days', 'forecast', 'tag', 'units']);
    });

    it.each(LIBRARIES)('hands the %s handler the transformed arguments: defaults applied, tag upper-cased', async (library) => {
      const result = await client.callTool(`forecast-${library}`, { city: 'Oslo', tag: 'trip' });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ city: 'Oslo', days: 3, units: 'c', tag: 'TRIP', forecast: ['day 1: 20°C', 'day 2: 20°C', 'day 3: 20°C'] });
      expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    });

    it.each(LIBRARIES)('answers invalid %s arguments with the library\'s issues, each named by its path', async (library) => {
      const result = await client.callTool(`forecast-${library}`, { city: 'O', days: 9, tag: 7 });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: INVALID[library] }]);
    });

    it.each(LIBRARIES)('refuses a result that breaks its %s output schema: a logged fault, not the bad value', async (library) => {
      const result = await client.callTool(`broken-${library}`, {});
      expect(result.isError).toBe(true);
      const [, ref] = /^Internal error \(ref ([0-9a-f]+)\)$/.exec(result.content[0].text) ?? [];
      expect(ref).toBeDefined();
      expect(result.structuredContent).toBeUndefined();
      const logged = log.entries(ref!).map((line) => line.message).join('\n');
      expect(logged).toContain('Invalid result: "city"');
    });

    it('sends a tool error as it is, and refuses a whole result without the structuredContent its output schema wants', async () => {
      expect(await client.callTool('unstructured-zod', { fail: true })).toMatchObject({ content: [{ type: 'text', text: 'No forecast today' }], isError: true });
      const missing = await client.callTool('unstructured-zod', { fail: false });
      const [, ref] = /^Internal error \(ref ([0-9a-f]+)\)$/.exec(missing.content[0].text) ?? [];
      expect(log.entries(ref!).map((line) => line.message).join('\n')).toContain('The tool has an output schema but its result has no structuredContent');
    });

    it('runs guards before the schema: a denied call never learns the schema from a validation error', async () => {
      await expect(client.callTool('guarded-zod', { count: 'not a number', deny: true })).rejects.toThrow(/Forbidden resource/);
      const invalid = await client.callTool('guarded-zod', { count: 'not a number' });
      expect(invalid.content[0].text).toBe('Invalid arguments: "count": Invalid input: expected number, received string');
      expect((await client.callTool('guarded-zod', { count: 2 })).content).toEqual([{ type: 'text', text: 'count 2' }]);
    });

    it('awaits an async validation', async () => {
      expect((await client.callTool('slow-check-zod', { code: 'open-sesame' })).content).toEqual([{ type: 'text', text: 'open-sesame accepted for slow-check-zod' }]);
      expect((await client.callTool('slow-check-zod', { code: 'guess' })).content).toEqual([{ type: 'text', text: 'Invalid arguments: "code": wrong code' }]);
    });

    it('checks and converts a run-time tool\'s arguments and result with its Zod schemas', async () => {
      const result = await client.callTool('add-zod', { a: '2', b: 3 });
      expect(result.structuredContent).toEqual({ sum: 5 });
    });

    it('converts and checks a run-time prompt\'s arguments with its Zod parameters', async () => {
      const result = await client.getPrompt('greet-zod', { name: 'Ada', times: '2' });
      expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Hello Hello Ada (number)' } }]);
      await expect(client.getPrompt('greet-zod', { name: 'Ada', times: '0' })).rejects.toThrow(/Invalid prompt arguments: "times": Too small/);
    });

    it('asks with a Zod form and hands the tool its typed, defaulted content', async () => {
      const asked: unknown[] = [];
      client.answerWith(() => {
        asked.push(true);
        return { action: 'accept', content: { name: 'ada', age: 36, plan: 'pro' } };
      });
      const result = await client.callTool('signup-zod', {});
      expect(asked).toHaveLength(1);
      expect(result.structuredContent).toEqual({ signedUp: true, name: 'ADA', nextAge: 37, newsletter: false, plan: 'pro' });
      client.answerWith(() => ({ action: 'decline' }));
      expect((await client.callTool('signup-zod', {})).structuredContent).toEqual({ signedUp: false });
    });

    it('lists a prompt\'s Zod arguments and converts them (the string "5" is the number 5)', async () => {
      const result = await client.getPrompt('review-zod', { code: 'x = 1', strictness: '5' });
      expect(result.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Review at strictness 5 (number):\nx = 1' } }]);
      await expect(client.getPrompt('review-zod', { code: 'x = 1', strictness: '9' })).rejects.toThrow(/Invalid prompt arguments: "strictness": /);
    });
  });

  it('sends the form a Zod schema converts to as the requestedSchema', async () => {
    const response = await postMcp(started.url, rpc('tools/call', { name: 'signup-zod', arguments: {} }, { meta: { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } } }));
    const question = response.body.result.inputRequests['elicitation-1'];
    expect(question.params.requestedSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: 'Your name' },
        age: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
        newsletter: { type: 'boolean', default: false },
        plan: { type: 'string', enum: ['free', 'pro'] },
      },
      required: ['name', 'age', 'plan'],
    });
  });

  it('converts and checks a resource template\'s variables with its Zod parameters, and completes its enum', async () => {
    const read = await postMcp(started.url, rpc('resources/read', { uri: 'forecast://Oslo/3/f' }));
    expect(JSON.parse(read.body.result.contents[0].text)).toEqual({ city: 'Oslo', days: 3, units: 'f', typeOfDays: 'number' });
    const invalid = await postMcp(started.url, rpc('resources/read', { uri: 'forecast://O/9/f' }));
    expect(invalid.body.error).toEqual({ code: -32602, message: 'Invalid resource variables: "city": Too small: expected string to have >=2 characters; "days": Too big: expected number to be <=7' });
    const completion = await postMcp(started.url, rpc('completion/complete', { ref: { type: 'ref/resource', uri: 'forecast://{city}/{days}/{units}' }, argument: { name: 'units', value: '' } }));
    expect(completion.body.result.completion.values).toEqual(['c', 'f']);
    const templates = await postMcp(started.url, rpc('resources/templates/list'));
    expect(templates.body.result.resourceTemplates).toEqual([{ uriTemplate: 'forecast://{city}/{days}/{units}', name: 'forecast-page', mimeType: 'application/json' }]);
  });

  it('lists the prompt\'s arguments from its Zod schema', async () => {
    const response = await postMcp(started.url, rpc('prompts/list'));
    const prompt = response.body.result.prompts.find((entry: { name: string }) => entry.name === 'review-zod');
    expect(prompt.arguments).toEqual([
      { name: 'code', description: 'The code', required: true },
      { name: 'strictness', required: false },
    ]);
  });
});

/** A module serving `tools` alone. */
function moduleOf(tools: new () => object): Function {
  @Module({ imports: [McpModule.forRoot({ name: 'schema-startup', version: '1.0.0' })], providers: [tools] })
  class ToolsModule {}
  return ToolsModule;
}

describe('Standard Schema problems fail start-up, naming the tool', () => {
  it('an output schema its library cannot convert (a Zod transform)', async () => {
    @Injectable()
    class TransformedOutput {
      @McpTool({ description: 'Dates out', inputSchema: z.object({}), output: z.object({ at: z.string().transform((text) => new Date(text)) }) })
      when() {
        return { at: '2026-12-03' };
      }
    }
    const error = await startupFailure([moduleOf(TransformedOutput)]);
    expect(error.message).toMatch(/^The zod schema of the output of TransformedOutput\.when\(\) cannot be converted to JSON Schema \(output\): Transforms cannot be represented in JSON Schema/);
  });

  it('a Valibot schema without toStandardJsonSchema()', async () => {
    @Injectable()
    class Unwrapped {
      @McpTool({ description: 'Unwrapped', inputSchema: v.object({ a: v.string() }) as never })
      take() {
        return 'a';
      }
    }
    expect((await startupFailure([moduleOf(Unwrapped)])).message).toContain('The valibot schema of the arguments of Unwrapped.take() cannot convert itself to JSON Schema');
  });

  it('arguments that are not an object schema', async () => {
    @Injectable()
    class NotAnObject {
      @McpTool({ description: 'A string', inputSchema: z.string() as never })
      take() {
        return 'a';
      }
    }
    expect((await startupFailure([moduleOf(NotAnObject)])).message).toBe('Invalid input schema for NotAnObject.take(): the root must have "type": "object"');
  });

  it('both names of one option', async () => {
    @Injectable()
    class Twice {
      @McpTool({ description: 'Twice', inputSchema: z.object({}), parameters: z.object({}) })
      take() {
        return 'a';
      }
    }
    expect((await startupFailure([moduleOf(Twice)])).message).toBe('Tool Twice.take() names both "inputSchema" and "parameters": they are one option under two names');
  });
});
