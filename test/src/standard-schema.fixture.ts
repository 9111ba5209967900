import { Injectable, Module, type OnModuleInit, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { McpArgs, McpExecutionContext, McpModule, McpPrompt, McpRegistry, McpResourceTemplate, McpTool, type McpSchemaOutput, type McpToolContext } from 'nest-mcp';

// The same forecast tool three times, once per schema library: a minimum length, an integer range with
// a default, an enum with a default, and a transform (`tag` is upper-cased before the handler sees it).

export const zodForecastInput = z.object({
  city: z.string().min(2).describe('City name'),
  days: z.number().int().min(1).max(7).default(3),
  units: z.enum(['c', 'f']).default('c'),
  tag: z.string().transform((tag) => tag.toUpperCase()),
});
export const zodForecastOutput = z.object({ city: z.string(), days: z.number(), units: z.string(), tag: z.string(), forecast: z.array(z.string()) });

export const valibotForecastInput = toStandardJsonSchema(
  v.object({
    city: v.pipe(v.string(), v.minLength(2), v.description('City name')),
    days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7)), 3),
    units: v.optional(v.picklist(['c', 'f']), 'c'),
    tag: v.pipe(v.string(), v.transform((tag) => tag.toUpperCase())),
  }),
);
export const valibotForecastOutput = toStandardJsonSchema(
  v.object({ city: v.string(), days: v.number(), units: v.string(), tag: v.string(), forecast: v.array(v.string()) }),
);

export const arktypeForecastInput = type({
  city: 'string >= 2',
  days: ['1 <= number.integer <= 7', '=', 3],
  units: ["'c' | 'f'", '=', 'c'],
  tag: type('string').pipe((tag) => tag.toUpperCase()),
});
export const arktypeForecastOutput = type({ city: 'string', days: 'number', units: 'string', tag: 'string', forecast: 'string[]' });

interface ForecastArgs {
  city: string;
  days: number;
  units: 'c' | 'f';
  tag: string;
}

function forecast({ city, days, units, tag }: ForecastArgs) {
  return { city, days, units, tag, forecast: Array.from({ length: days }, (_, day) => `day ${day + 1}: 20°${units.toUpperCase()}`) };
}

/** Refuses calls carrying `"deny": true`: guards run before any schema sees the arguments. */
@Injectable()
export class DenyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return McpExecutionContext.create(context).getArguments().deny !== true;
  }
}

@Injectable()
export class ZodTools {
  @McpTool({ name: 'forecast-zod', description: 'A forecast (Zod schemas)', inputSchema: zodForecastInput, output: zodForecastOutput })
  forecast(args: z.output<typeof zodForecastInput>) {
    return forecast(args);
  }

  @McpTool({ name: 'broken-zod', description: 'Returns what its Zod output schema refuses', inputSchema: z.object({}), output: zodForecastOutput })
  broken() {
    return { city: 42 } as never;
  }

  @McpTool({ name: 'unstructured-zod', description: 'A whole result without structuredContent, though it has an output schema', inputSchema: z.object({ fail: z.boolean() }), output: zodForecastOutput })
  unstructured({ fail }: { fail: boolean }) {
    // A tool error is sent as it is; a result that should carry structure and does not is a fault.
    return fail ? { content: [{ type: 'text', text: 'No forecast today' }], isError: true } : { content: [{ type: 'text', text: 'sunny' }] };
  }

  @UseGuards(DenyGuard)
  @McpTool({ name: 'guarded-zod', description: 'Guarded, then checked by Zod', inputSchema: z.object({ count: z.number().int(), deny: z.boolean().optional() }) })
  guarded(@McpArgs() args: { count: number }) {
    return `count ${args.count}`;
  }

  @McpTool({
    name: 'slow-check-zod',
    description: 'An async refinement',
    inputSchema: z.object({ code: z.string().refine(async (code) => code === 'open-sesame', 'wrong code') }),
  })
  slowCheck(args: { code: string }, ctx: McpToolContext) {
    return `${args.code} accepted for ${ctx.toolName}`;
  }

  @McpTool({ name: 'signup-zod', description: 'Asks for details with a Zod form', inputSchema: z.object({}) })
  async signup(_args: object, ctx: McpToolContext) {
    const answer = await ctx.elicit(
      'Your details?',
      z.object({ name: z.string().min(1).describe('Your name'), age: z.number().int().min(0), newsletter: z.boolean().default(false), plan: z.enum(['free', 'pro']) }),
    );
    if (!answer.isAccepted()) return { signedUp: false };
    // Typed from the schema: content.age is a number, content.plan is 'free' | 'pro'.
    const { name, age, newsletter, plan } = answer.content;
    return { signedUp: true, name: name.toUpperCase(), nextAge: age + 1, newsletter, plan };
  }

  @McpPrompt({
    name: 'review-zod',
    description: 'A code review prompt with Zod arguments',
    parameters: z.object({ code: z.string().describe('The code'), strictness: z.number().int().min(1).max(5).default(3) }),
  })
  review({ code, strictness }: { code: string; strictness: number }) {
    return `Review at strictness ${strictness} (${typeof strictness}):\n${code}`;
  }
}

@Injectable()
export class ZodResources {
  @McpResourceTemplate({
    uriTemplate: 'forecast://{city}/{days}/{units}',
    name: 'forecast-page',
    mimeType: 'application/json',
    parameters: z.object({ city: z.string().min(2), days: z.number().int().min(1).max(7), units: z.enum(['c', 'f']) }),
  })
  page({ uri, city, days, units }: { uri: string; city: string; days: number; units: 'c' | 'f' }) {
    return { contents: [{ uri, text: JSON.stringify({ city, days, units, typeOfDays: typeof days }) }] };
  }
}

@Injectable()
export class ValibotTools {
  @McpTool({ name: 'forecast-valibot', description: 'A forecast (Valibot schemas)', inputSchema: valibotForecastInput, output: valibotForecastOutput })
  forecast(args: McpSchemaOutput<typeof valibotForecastInput>) {
    return forecast(args);
  }

  @McpTool({ name: 'broken-valibot', description: 'Returns what its Valibot output schema refuses', inputSchema: toStandardJsonSchema(v.object({})), output: valibotForecastOutput })
  broken() {
    return { city: 42 } as never;
  }
}

@Injectable()
export class ArkTypeTools {
  @McpTool({ name: 'forecast-arktype', description: 'A forecast (ArkType schemas)', inputSchema: arktypeForecastInput, output: arktypeForecastOutput })
  forecast(args: typeof arktypeForecastInput.infer) {
    return forecast(args);
  }

  @McpTool({ name: 'broken-arktype', description: 'Returns what its ArkType output schema refuses', inputSchema: type({}), output: arktypeForecastOutput })
  broken() {
    return { city: 42 } as never;
  }
}

/** A tool added at run time with a Zod schema: its handler's `args` are typed from it. */
@Injectable()
export class RuntimeTools implements OnModuleInit {
  constructor(private readonly registry: McpRegistry) {}

  onModuleInit(): void {
    this.registry.addTool(
      { name: 'add-zod', description: 'Adds two numbers (added at run time)', inputSchema: z.object({ a: z.coerce.number(), b: z.coerce.number() }), output: z.object({ sum: z.number() }) },
      ({ a, b }) => ({ sum: a + b }),
    );
    this.registry.addPrompt(
      { name: 'greet-zod', description: 'Greets (added at run time)', parameters: z.object({ name: z.string(), times: z.number().int().min(1).default(1) }) },
      ({ name, times }) => `${'Hello '.repeat(times)}${name} (${typeof times})`,
    );
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'standard-schema-e2e', version: '1.0.0' })],
  providers: [ZodTools, ZodResources, ValibotTools, ArkTypeTools, RuntimeTools, DenyGuard],
})
export class StandardSchemaFixtureModule {}
