// `npm run bench:routes`: what a tool call costs when the tool is a controller route (issue 31), next to
// the same work as a provider tool, in one app, in the same run. Two pairs, each over loopback HTTP
// (2026-07-28 tools/call, Express), subjects interleaved, medians of several runs:
//   1. named:  @McpArg('message')       vs  @Post() route with @Body('message')
//   2. dto:    @McpArgs() EchoDto        vs  @Post() route with @Body() EchoDto (the app's global ValidationPipe)
// and, for information, the same route over REST (POST /echo/dto). Prints throughput and p50 with the
// route tool's ratio to the provider tool. Asserts nothing about time.
//   node bench/route-tools.mjs [--quick]     (after `npm run build`)
import 'reflect-metadata';
import { Body, Controller, HttpCode, Injectable, Module, Post, ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';
import { McpArg, McpArgs, McpModule, McpTool } from 'nest-mcp';
import { cannon, headersFor, median, meta } from './harness.mjs';

const QUICK = process.argv.includes('--quick');
const CFG = { connections: 10, durationS: QUICK ? 1 : 3, runs: QUICK ? 1 : 5 };

class EchoDto {}
const property = (key, designType, decorators) => {
  Reflect.defineMetadata('design:type', designType, EchoDto.prototype, key);
  Reflect.decorate(decorators, EchoDto.prototype, key);
};
property('message', String, [IsString(), MinLength(2)]);
property('times', Number, [IsInt(), Min(1), Max(3)]);

/** Decorates `name` of `target` as TypeScript would (a bench is plain JS): parameter types, then the decorators. */
function method(target, name, paramTypes, params, decorators) {
  const proto = target.prototype;
  Reflect.defineMetadata('design:paramtypes', paramTypes, proto, name);
  params.forEach((decorate, index) => decorate(proto, name, index));
  const descriptor = Object.getOwnPropertyDescriptor(proto, name);
  for (const decorate of [...decorators].reverse()) decorate(proto, name, descriptor);
  Object.defineProperty(proto, name, descriptor);
}

const echo = (message, times = 1) => ({ echoed: message.repeat(times) });

class ProviderTools {
  named(message) {
    return echo(message);
  }
  dto(dto) {
    return echo(dto.message, dto.times);
  }
}
method(ProviderTools, 'named', [String], [McpArg('message')], [McpTool({ name: 'provider_named', description: 'Echoes' })]);
method(ProviderTools, 'dto', [EchoDto], [McpArgs()], [McpTool({ name: 'provider_dto', description: 'Echoes' })]);
Reflect.decorate([Injectable()], ProviderTools);

class EchoController {
  named(message) {
    return echo(message);
  }
  dto(dto) {
    return echo(dto.message, dto.times);
  }
}
method(EchoController, 'named', [String], [Body('message')], [Post('named'), HttpCode(200), McpTool({ name: 'route_named', description: 'Echoes' })]);
method(EchoController, 'dto', [EchoDto], [Body()], [Post('dto'), HttpCode(200), McpTool({ name: 'route_dto', description: 'Echoes' })]);
Reflect.decorate([Controller('echo')], EchoController);

class BenchModule {}
Reflect.decorate(
  [Module({ imports: [McpModule.forRoot({ name: 'bench-routes', version: '1.0.0', playground: false })], providers: [ProviderTools], controllers: [EchoController] })],
  BenchModule,
);

const call = (name, args) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args, _meta: meta() } });
const NAMED = { message: 'hello, bench' };
const DTO = { message: 'hello, bench', times: 2 };

const app = await NestFactory.create(BenchModule, { logger: false });
app.useGlobalPipes(new ValidationPipe({ transform: true }));
await app.listen(0, '127.0.0.1');
const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;

const SUBJECTS = [
  { key: 'provider_named', label: 'provider tool, @McpArg', url: `${base}/mcp`, body: call('provider_named', NAMED) },
  { key: 'route_named', label: 'route tool, @Body(\'message\')', url: `${base}/mcp`, body: call('route_named', NAMED) },
  { key: 'provider_dto', label: 'provider tool, @McpArgs() DTO', url: `${base}/mcp`, body: call('provider_dto', DTO) },
  { key: 'route_dto', label: 'route tool, @Body() DTO + ValidationPipe', url: `${base}/mcp`, body: call('route_dto', DTO) },
  { key: 'rest_dto', label: 'the same route over REST (info)', url: `${base}/echo/dto`, body: DTO, headers: { 'content-type': 'application/json' } },
];

try {
  // One answer of each, checked, before anything is measured: a broken subject must not be timed.
  for (const subject of SUBJECTS) {
    const response = await fetch(subject.url, { method: 'POST', headers: subject.headers ?? headersFor(subject.body), body: JSON.stringify(subject.body) });
    const text = await response.text();
    if (!response.ok || !text.includes('hello, bench')) throw new Error(`${subject.key} answered ${response.status}: ${text}`);
  }
  const figures = Object.fromEntries(SUBJECTS.map((subject) => [subject.key, []]));
  for (const subject of SUBJECTS) await cannon(subject.url, subject.body, { connections: CFG.connections, duration: 1, headers: subject.headers }); // warm-up
  for (let run = 0; run < CFG.runs; run++) {
    for (const subject of SUBJECTS) {
      const result = await cannon(subject.url, subject.body, { connections: CFG.connections, duration: CFG.durationS, headers: subject.headers });
      if (result.non2xx + result.errors + result.timeouts > 0) throw new Error(`${subject.key}: ${JSON.stringify(result)}`);
      figures[subject.key].push(result);
    }
  }
  const med = (key, field) => median(figures[key].map((result) => result[field]));
  const row = (key, baseline) => {
    const label = SUBJECTS.find((subject) => subject.key === key).label;
    const rps = med(key, 'rps');
    const ratio = baseline ? `  ×${(rps / med(baseline, 'rps')).toFixed(2)} of ${baseline}` : '';
    return `${label.padEnd(44)} ${rps.toFixed(0).padStart(7)} req/s  p50 ${String(med(key, 'p50')).padStart(3)} ms${ratio}`;
  };
  console.log(`route tools vs provider tools (${CFG.runs} run(s) × ${CFG.durationS} s, ${CFG.connections} connections, Express, loopback; medians)`);
  console.log(row('provider_named'));
  console.log(row('route_named', 'provider_named'));
  console.log(row('provider_dto'));
  console.log(row('route_dto', 'provider_dto'));
  console.log(row('rest_dto', 'route_dto'));
} finally {
  await app.close();
}
