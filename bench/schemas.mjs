// `npm run bench:schemas`: what Standard Schema tools cost next to class-validator DTOs (issue 29).
//   1. start-up: an app with 100 tools, from NestFactory.create() to init() done (discovery, schema
//      conversion, invokers), for Zod tools, DTO tools and named-parameter tools, and an app with none;
//   2. per call: the argument check of one valid call (what runs between the guards and the method):
//      the DTO path (ajv, class-transformer, class-validator) against Zod's, Valibot's and ArkType's validate.
// In-process, subjects interleaved, medians; prints ratios to the DTO path. Asserts nothing about time.
//   node bench/schemas.mjs [--quick]     (after `npm run build`)
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import * as v from 'valibot';
import { z } from 'zod';
import { McpArg, McpArgs, McpModule, McpTool } from 'nest-mcp';
import { ArgumentValidator, dtoToJsonSchema, StandardValidator, toDtoInstance, validateDto } from '../dist/lib/schema/index.js';
import { median } from './harness.mjs';

const TOOLS = 100;

// The same arguments in every style: a string with a minimum length, an optional integer range, an enum, a string array.
const zodSchema = () => z.object({ city: z.string().min(2), days: z.number().int().min(1).max(7).optional(), units: z.enum(['c', 'f']), tags: z.array(z.string()) });
const valibotSchema = () =>
  toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(2)), days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7))), units: v.picklist(['c', 'f']), tags: v.array(v.string()) }));
const arktypeSchema = () => type({ city: 'string >= 2', 'days?': '1 <= number.integer <= 7', units: "'c' | 'f'", tags: 'string[]' });

function dtoClass() {
  class ForecastDto {}
  const property = (key, designType, decorators) => {
    Reflect.defineMetadata('design:type', designType, ForecastDto.prototype, key);
    Reflect.decorate(decorators, ForecastDto.prototype, key);
  };
  property('city', String, [IsString(), MinLength(2)]);
  property('days', Number, [IsOptional(), IsInt(), Min(1), Max(7)]);
  property('units', String, [IsIn(['c', 'f'])]);
  property('tags', Array, [IsString({ each: true })]);
  return ForecastDto;
}

/** A provider with `count` tools in one style, decorated by hand as TypeScript would (a bench is plain JS). */
function toolsClass(style, count) {
  class Tools {}
  const proto = Tools.prototype;
  for (let index = 0; index < count; index++) {
    const name = `tool_${index}`;
    proto[name] = function (args) {
      return args;
    };
    const descriptor = Object.getOwnPropertyDescriptor(proto, name);
    const options = { name, description: `Tool ${index}` };
    if (style === 'zod') {
      Reflect.defineMetadata('design:paramtypes', [Object], proto, name);
      McpTool({ ...options, inputSchema: zodSchema() })(proto, name, descriptor);
    } else if (style === 'dto') {
      const dto = dtoClass();
      Reflect.defineMetadata('design:paramtypes', [dto], proto, name);
      McpArgs()(proto, name, 0);
      McpTool(options)(proto, name, descriptor);
    } else {
      Reflect.defineMetadata('design:paramtypes', [String, Number, String, Array], proto, name);
      McpArg('city')(proto, name, 0);
      McpArg('days', { required: false })(proto, name, 1);
      McpArg('units', { enum: ['c', 'f'] })(proto, name, 2);
      McpArg('tags', { items: String })(proto, name, 3);
      McpTool(options)(proto, name, descriptor);
    }
    Object.defineProperty(proto, name, descriptor);
  }
  Reflect.decorate([Injectable()], Tools);
  return Tools;
}

/** ms from create() to init() done, for a fresh module of `style` (its classes and schemas made beforehand). */
async function startOnce(style) {
  const providers = style === 'none' ? [] : [toolsClass(style, TOOLS)];
  class AppModule {}
  Reflect.decorate([Module({ imports: [McpModule.forRoot({ name: 'bench', version: '1.0.0', playground: false })], providers })], AppModule);
  const t0 = performance.now();
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.init();
  const ms = performance.now() - t0;
  await app.close();
  return ms;
}

export const STARTUP_SUBJECTS = {
  zod: `${TOOLS} tools with Zod inputSchema`,
  dto: `${TOOLS} tools with a class-validator DTO (@McpArgs)`,
  named: `${TOOLS} tools with four @McpArg parameters`,
  none: 'no tools (the module alone)',
};

async function startup(runs) {
  const times = Object.fromEntries(Object.keys(STARTUP_SUBJECTS).map((key) => [key, []]));
  for (const key of Object.keys(times)) await startOnce(key); // warm-up: the first start of each pays for loading and JIT
  for (let run = 0; run < runs; run++) for (const key of Object.keys(times)) times[key].push(await startOnce(key));
  return Object.fromEntries(Object.entries(times).map(([key, list]) => [key, { ms: median(list), min: Math.min(...list), max: Math.max(...list) }]));
}

const ARGS = { city: 'Oslo', days: 3, units: 'c', tags: ['trip', 'work'] };

/** Each subject's check of one valid call, as tools/call runs it; resolves when the arguments are accepted. */
function checks() {
  const dto = dtoClass();
  const json = new ArgumentValidator(dtoToJsonSchema(dto));
  const standard = (schema) => new StandardValidator(schema);
  const zod = standard(zodSchema());
  const valibot = standard(valibotSchema());
  const arktype = standard(arktypeSchema());
  const accept = (result) => {
    if (!result.ok) throw new Error(result.message);
  };
  return {
    dto: async () => {
      accept(json.validate(ARGS));
      const problem = await validateDto(toDtoInstance(dto, ARGS));
      if (problem) throw new Error(problem);
    },
    zod: async () => accept(await zod.validate(ARGS)),
    valibot: async () => accept(await valibot.validate(ARGS)),
    arktype: async () => accept(await arktype.validate(ARGS)),
    'json-schema': async () => accept(json.validate(ARGS)),
  };
}

export const CALL_SUBJECTS = {
  dto: 'DTO: ajv, then class-transformer + class-validator',
  zod: 'Zod 4 validate',
  valibot: 'Valibot validate',
  arktype: 'ArkType validate',
  'json-schema': 'ajv alone (@McpArg parameters)',
};

async function perCall(iterations, runs) {
  const subjects = checks();
  const perCheck = Object.fromEntries(Object.keys(subjects).map((key) => [key, []]));
  for (const check of Object.values(subjects)) for (let i = 0; i < 5_000; i++) await check(); // JIT warm-up
  for (let run = 0; run < runs; run++) {
    for (const [key, check] of Object.entries(subjects)) {
      const t0 = performance.now();
      for (let i = 0; i < iterations; i++) await check();
      perCheck[key].push(((performance.now() - t0) * 1000) / iterations);
    }
  }
  return Object.fromEntries(Object.entries(perCheck).map(([key, list]) => [key, median(list)]));
}

/** Both measurements: start-up ms per subject, µs per argument check per subject. */
export async function schemaFigures({ quick = false } = {}) {
  // The per-call figures first: class-validator looks a class's rules up among all it knows, so the
  // thousands of DTO classes the start-up runs define would slow the DTO path down for the rest of the process.
  const call = await perCall(quick ? 2_000 : 20_000, 5);
  return { startup: await startup(quick ? 2 : 11), call };
}

/** A ratio with enough digits to read when it is far below 1. */
const ratio = (value) => (value < 0.1 ? value.toFixed(3) : value.toFixed(2));

/** The rows `npm run bench` prints (numbered 7), each a ratio to the DTO subject. */
export function schemaRows(figures) {
  const rows = [];
  const { startup: s, call: c } = figures;
  for (const [key, label] of Object.entries(STARTUP_SUBJECTS)) {
    rows.push(`| 7 | start-up, create() to init() | ${label} | **${s[key].ms.toFixed(0)} ms** · ${ratio(s[key].ms / s.dto.ms)}× DTO | min ${s[key].min.toFixed(0)} · max ${s[key].max.toFixed(0)} ms · median, interleaved · ${key === 'none' ? 'the module and Nest alone' : `${((s[key].ms - s.none.ms) / TOOLS).toFixed(2)} ms per tool over the empty module`} |`);
  }
  for (const [key, label] of Object.entries(CALL_SUBJECTS)) {
    rows.push(`| 7 | argument check of one valid call | ${label} | **${c[key].toFixed(2)} µs** · ${ratio(c[key] / c.dto)}× DTO | in-process, awaited one after another, median of 5 runs |`);
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const figures = await schemaFigures({ quick: process.argv.includes('--quick') });
  console.log(['| # | Benchmark | Subject | Result | Detail |', '|---|---|---|---|---|', ...schemaRows(figures)].join('\n'));
}
