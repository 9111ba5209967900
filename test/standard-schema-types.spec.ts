import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { type } from 'arktype';
import { z } from 'zod';
import { McpPrompt, McpRegistry, McpResourceTemplate, McpTool, type McpToolContext } from 'nest-mcp';

// Compile-time tests: `npm test` type-checks this file first (tsc --noEmit covers test/). Each
// `@ts-expect-error` marks a line that must stay a type error; were the handlers not typed from their
// schemas, the directive itself would be the error and the type-check would fail.

const city = z.object({ city: z.string(), days: z.number().default(3) });
const report = z.object({ summary: z.string() });

export class TypedTools {
  @McpTool({ description: 'Arguments typed from the schema', inputSchema: city })
  right(args: { city: string; days: number }) {
    return args.city.repeat(args.days);
  }

  // @ts-expect-error the schema's `days` is a number, not a string
  @McpTool({ description: 'A first parameter the schema does not produce', inputSchema: city })
  wrongArguments(args: { city: string; days: string }) {
    return args.days;
  }

  @McpTool({ description: 'A result typed by the output schema', inputSchema: city, output: report })
  async rightResult() {
    return { summary: 'sunny' };
  }

  // @ts-expect-error the output schema wants `summary: string`
  @McpTool({ description: 'A result the output schema refuses', inputSchema: city, output: report })
  wrongResult() {
    return { summary: 42 };
  }

  @McpTool({ description: 'A whole result, its structuredContent typed', inputSchema: city, output: report })
  wholeResult() {
    return { content: [{ type: 'text', text: 'sunny' }], structuredContent: { summary: 'sunny' } };
  }

  // @ts-expect-error the whole result's structuredContent must match the output schema too
  @McpTool({ description: 'A whole result with the wrong structuredContent', inputSchema: city, output: report })
  wrongWholeResult() {
    return { content: [], structuredContent: { summary: false } };
  }

  // @ts-expect-error ArkType schemas type the handler too
  @McpTool({ description: 'ArkType', inputSchema: type({ count: 'number' }) })
  wrongArkType(args: { count: string }) {
    return args.count;
  }

  @McpPrompt({ description: 'Prompt arguments typed', parameters: z.object({ topic: z.string(), depth: z.number().default(1) }) })
  rightPrompt({ topic, depth }: { topic: string; depth: number }) {
    return `${topic} ${depth}`;
  }

  // @ts-expect-error `depth` is a number once the schema has converted it
  @McpPrompt({ description: 'Prompt arguments mistyped', parameters: z.object({ depth: z.number() }) })
  wrongPrompt({ depth }: { depth: string }) {
    return depth;
  }

  @McpResourceTemplate({ uriTemplate: 'items://{id}', name: 'item', parameters: z.object({ id: z.number().int() }) })
  rightTemplate({ uri, id }: { uri: string; id: number }) {
    return `${uri} ${id}`;
  }

  // @ts-expect-error `id` is a number
  @McpResourceTemplate({ uriTemplate: 'things://{id}', name: 'thing', parameters: z.object({ id: z.number().int() }) })
  wrongTemplate({ id }: { id: string }) {
    return id;
  }

  @McpTool({ description: 'An elicit() with a Zod form types the answer', inputSchema: z.object({}) })
  async asks(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicit('Age?', z.object({ age: z.number().int() }));
    // @ts-expect-error `age` is a number
    answer.content.age.toUpperCase();
    // @ts-expect-error the form has no `name`
    return answer.content.name;
  }
}

export function addTypedTool(registry: McpRegistry): void {
  registry.addTool({ name: 'sum', description: 'Adds', inputSchema: z.object({ a: z.number(), b: z.number() }), output: z.object({ sum: z.number() }) }, ({ a, b }) => ({ sum: a + b }));
  // @ts-expect-error `a` is a number
  registry.addTool({ name: 'upper', description: 'Uppercases', inputSchema: z.object({ a: z.number() }) }, ({ a }) => a.toUpperCase());
  // @ts-expect-error the output schema wants `{ sum: number }`
  registry.addTool({ name: 'bad', description: 'Bad result', inputSchema: z.object({}), output: z.object({ sum: z.number() }) }, () => ({ sum: 'many' }));
}

describe('typed handlers', () => {
  it('compile: the type errors above are what this file proves (tsc --noEmit); the decorators apply at run time too', () => {
    expect(Object.getOwnPropertyNames(TypedTools.prototype)).toEqual(expect.arrayContaining(['right', 'wrongArguments', 'rightResult', 'wrongResult', 'asks']));
  });
});
