import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, Injectable, Module, Param, ParseIntPipe, Post, ValidationPipe } from '@nestjs/common';
import { APP_PIPE } from '@nestjs/core';
import { IsAlpha, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { McpArgs, McpModule, McpTool } from '../lib/index.js';
import { postMcp, rpc, startApp, type Json, type StartedApp } from './support/mcp-http.js';

class CreatePersonDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(40)
  // Letters only: a rule the JSON Schema does not carry, so only class-validator can refuse "Ada 2".
  @IsAlpha()
  name!: string;
}

/** Has a property named like the route's path parameter, so the whole body is the `body` argument. */
class MembershipDto {
  @IsString()
  @IsAlpha()
  name!: string;

  @IsString()
  team!: string;
}

/** What reached a handler, in order: a refused call must leave no trace here. */
@Injectable()
class Reached {
  readonly calls: string[] = [];
}

@Controller('people')
class PeopleController {
  constructor(private readonly reached: Reached) {}

  @Post()
  @McpTool({ name: 'people_create', description: 'Adds a person' })
  create(@Body() dto: CreatePersonDto) {
    this.reached.calls.push('people_create');
    return { name: dto.name, instance: dto instanceof CreatePersonDto };
  }

  @Get('named/:name')
  @McpTool({ name: 'people_get', description: 'Reads a person by name' })
  get(@Param('name') name: string) {
    this.reached.calls.push('people_get');
    return { name };
  }

  @Get('aged/:age')
  @McpTool({ name: 'people_aged', description: 'Lists people of an age' })
  aged(@Param('age', ParseIntPipe) age: number) {
    this.reached.calls.push('people_aged');
    return { age, type: typeof age };
  }

  @Post('teams/:team')
  @McpTool({ name: 'people_join', description: 'Moves a person from a team to this one' })
  join(@Param('team') team: string, @Body() dto: MembershipDto) {
    this.reached.calls.push('people_join');
    return { team, from: dto.team, name: dto.name };
  }
}

/** The same DTO through @McpArgs(): what a route tool's refusals must look like. */
@Injectable()
class PeopleTools {
  constructor(private readonly reached: Reached) {}

  @McpTool({ name: 'provider_create', description: 'Adds a person' })
  create(@McpArgs() dto: CreatePersonDto) {
    this.reached.calls.push('provider_create');
    return { name: dto.name };
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'people', version: '1.0.0' })],
  controllers: [PeopleController],
  providers: [Reached, PeopleTools],
})
class PeopleModule {}

const LONG_NAME = 'A'.repeat(56);
// Parsed, so that `__proto__` is an own key of the arguments, as the server parses it from the wire.
const BAD_BODIES: Array<[string, Json, RegExp]> = [
  ['no name', {}, /^Invalid arguments: missing required property "name"$/],
  ['a number for the name', { name: 123 }, /^Invalid arguments: "name" must be string$/],
  ['a 56-character name (MaxLength 40)', { name: LONG_NAME }, /^Invalid arguments: "name" must NOT have more than 40 characters$/],
  ['a name that is not letters (IsAlpha, class-validator only)', { name: 'Ada 2' }, /^Invalid arguments: "name" must contain only letters/],
];
const PROTOTYPE_BODIES: Array<[string, Json]> = [
  ['__proto__', JSON.parse('{"name":"Ada","__proto__":{"admin":true}}')],
  ['constructor', { name: 'Ada', constructor: { name: 'Admin' } }],
];

/** A tool error (a result the model reads), with this one text. */
const toolError = (text: unknown) => expect.objectContaining({ resultType: 'complete', isError: true, content: [{ type: 'text', text }] });

/**
 * A route tool checks its arguments against what it advertises, whatever pipes the app has: the
 * schema (required path parameters, types, the DTO's constraints) and the DTO's class-validator rules,
 * at the step and with the answer a provider tool's @McpArgs() gives; the route's own pipes still run.
 */
describe.each([
  ['no ValidationPipe', [] as Json[]],
  ['a global ValidationPipe', [{ provide: APP_PIPE, useValue: new ValidationPipe({ transform: true }) }]],
])('route tool arguments, with %s', (pipes, providers) => {
  let started: StartedApp;
  let reached: string[];
  const withPipe = pipes !== 'no ValidationPipe';

  beforeAll(async () => {
    started = await startApp([PeopleModule], '/mcp', providers);
    reached = started.app.get(Reached).calls;
  });
  afterAll(async () => {
    await started?.app.close();
  });

  const call = async (name: string, args: Json) => {
    const body = rpc('tools/call', { name, arguments: {} });
    // JSON.stringify keeps an own "__proto__" key, so the server parses exactly what the case says.
    const reply = await postMcp(started.url, body, { rawBody: JSON.stringify({ ...body, params: { ...body.params, arguments: args } }) });
    expect(reply.status).toBe(200);
    return reply.body;
  };
  /** Calls the tool and expects its handler not to run. */
  const refused = async (name: string, args: Json) => {
    const before = reached.length;
    const answer = await call(name, args);
    expect(reached.slice(before)).toEqual([]);
    return answer;
  };

  it.each(BAD_BODIES)('a body with %s is a tool error, as @McpArgs() answers it, and the route never runs', async (_case, args, message) => {
    const viaRoute = await refused('people_create', args);
    expect(viaRoute.result).toEqual(toolError(expect.stringMatching(message)));
    expect(viaRoute).toEqual({ ...(await refused('provider_create', args)), id: viaRoute.id });
  });

  it.each(PROTOTYPE_BODIES)('a %s key in the body is refused as @McpArgs() refuses it (-32602), and the route never runs', async (key, args) => {
    const viaRoute = await refused('people_create', args);
    expect(viaRoute.error).toEqual({ code: -32602, message: `Invalid arguments: "${key}" is not an accepted property name` });
    expect(viaRoute).toEqual({ ...(await refused('provider_create', args)), id: viaRoute.id });
  });

  it.each([
    ['missing', {}, 'Invalid arguments: missing required property "name"'],
    ['null', { name: null }, 'Invalid arguments: "name" must be string'],
    ['a number', { name: 7 }, 'Invalid arguments: "name" must be string'],
  ])('a required path parameter that is %s is a tool error, and the route never runs', async (_case, args, text) => {
    expect((await refused('people_get', args)).result).toEqual(toolError(text));
  });

  it('a path parameter its ParseIntPipe advertises as an integer: text is refused before the pipe', async () => {
    expect((await refused('people_aged', { age: '42' })).result).toEqual(toolError('Invalid arguments: "age" must be integer'));
  });

  it('a body under "body" (a DTO property named like a path parameter) is checked there, its paths named from the arguments', async () => {
    expect((await refused('people_join', { team: 'red' })).result).toEqual(toolError('Invalid arguments: missing required property "body"'));
    expect((await refused('people_join', { team: 'red', body: { name: 7, team: 'blue' } })).result).toEqual(toolError('Invalid arguments: "body.name" must be string'));
    expect((await refused('people_join', { team: 'red', body: { name: 'Ada 2', team: 'blue' } })).result).toEqual(
      toolError('Invalid arguments: "body.name" must contain only letters (a-zA-Z)'),
    );
    const prototypeKey = JSON.parse('{"team":"red","body":{"name":"Ada","team":"blue","__proto__":{"admin":true}}}');
    expect((await refused('people_join', prototypeKey)).error).toEqual({ code: -32602, message: 'Invalid arguments: "body.__proto__" is not an accepted property name' });
    const before = reached.length;
    expect((await call('people_join', { team: 'red', body: { name: 'Ada', team: 'blue' } })).result.structuredContent).toEqual({ team: 'red', from: 'blue', name: 'Ada' });
    expect(reached.slice(before)).toEqual(['people_join']);
  });

  it('valid calls run the route, with its own pipes (ParseIntPipe makes the text of the URL a number)', async () => {
    const before = reached.length;
    expect((await call('people_aged', { age: 42 })).result.structuredContent).toEqual({ age: 42, type: 'number' });
    expect((await call('people_get', { name: 'Ada' })).result.structuredContent).toEqual({ name: 'Ada' });
    // The DTO is an instance only where a ValidationPipe transforms it, as for REST.
    expect((await call('people_create', { name: 'Ada' })).result.structuredContent).toEqual({ name: 'Ada', instance: withPipe });
    // Unknown keys pass, as @McpArgs() lets them.
    expect((await call('people_create', { name: 'Grace', nickname: 'Amazing' })).result.structuredContent).toEqual({ name: 'Grace', instance: withPipe });
    expect((await call('provider_create', { name: 'Grace', nickname: 'Amazing' })).result.structuredContent).toEqual({ name: 'Grace' });
    expect(reached.slice(before)).toEqual(['people_aged', 'people_get', 'people_create', 'people_create', 'provider_create']);
  });
});
