import { afterEach, describe, it } from '@jest/globals';
import { Body, Controller, Delete, Module, Post, Req, type INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { contractOn, installedVersions } from '../../../test/support/framework-contract.js';
import { hideBodyFromFastify, isHookOf, routeContextOf, standInPayload } from './fastify-internals.js';

/**
 * Contract of fastify-internals.ts with Fastify, on a real Nest app on Fastify and real HTTP: when an
 * upgrade moves or changes what it reads, this fails, naming the versions.
 */
const holds = contractOn(installedVersions('@nestjs/platform-fastify', 'fastify'));

/** The Fastify request the probe route was given. */
let lastRequest: object | undefined;

@Controller('probe')
class ProbeController {
  @Post()
  probe(@Req() request: object): string {
    lastRequest = request;
    return 'ok';
  }
}

/** The body each framing route's handler was given. */
const bodies: Record<string, unknown> = {};

@Controller('framing')
class FramingController {
  @Post('hidden')
  hidden(@Body() body: unknown): string {
    bodies.hidden = body;
    return 'ok';
  }

  @Delete('stand-in')
  standIn(@Body() body: unknown): string {
    bodies.standIn = body;
    return 'ok';
  }
}

@Module({ controllers: [ProbeController, FramingController] })
class ProbeModule {}

/** A route's own hook, added as the edge adds its `restoreMcpBody`. */
function ourHook(_request: unknown, _reply: unknown, done: () => void): void {
  done();
}

interface FastifyHooks {
  addHook(name: string, hook: Function): void;
}

let app: INestApplication | undefined;

/** A Nest app on Fastify whose probe route gets `ourHook` as its preValidation; `more` adds the application's hooks. */
async function postedRequest(more?: (fastify: FastifyHooks) => void): Promise<object> {
  app = (await Test.createTestingModule({ imports: [ProbeModule] }).compile()).createNestApplication(new FastifyAdapter());
  const fastify = app.getHttpAdapter().getInstance() as FastifyHooks;
  fastify.addHook('onRoute', (route: { url: string; preValidation?: unknown }) => {
    if (route.url.endsWith('/probe')) route.preValidation = [...[route.preValidation ?? []].flat(), ourHook];
  });
  more?.(fastify);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  lastRequest = undefined;
  await fetch(`http://127.0.0.1:${port}/probe`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  holds('the probe route was reached', lastRequest !== undefined);
  return lastRequest!;
}

/** A Nest app on Fastify whose framing routes read their bodies as the edge does; its base URL. */
async function framingApp(): Promise<string> {
  app = (await Test.createTestingModule({ imports: [ProbeModule] }).compile()).createNestApplication(new FastifyAdapter());
  const fastify = app.getHttpAdapter().getInstance() as FastifyHooks;
  type Raw = { raw: { headers: Record<string, string | string[] | undefined> }; headers: Record<string, string | string[] | undefined> };
  fastify.addHook('onRoute', (route: { url: string; preParsing?: unknown }) => {
    if (route.url.endsWith('/hidden')) {
      route.preParsing = (request: Raw, _reply: unknown, _payload: unknown, done: (error: null) => void) => {
        hideBodyFromFastify(request.raw.headers);
        done(null);
      };
    } else if (route.url.endsWith('/stand-in')) {
      route.preParsing = (request: Raw, _reply: unknown, _payload: unknown, done: (error: null, payload: unknown) => void) =>
        done(null, standInPayload(request.headers, Buffer.from('null')));
    }
  });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return `http://127.0.0.1:${port}/framing`;
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('Fastify internals (fastify-internals.ts)', () => {
  it('routeContextOf finds the route context under Symbol(fastify.context), with the route\'s hooks; isHookOf knows a hook Fastify bound', async () => {
    const request = await postedRequest();
    const context = routeContextOf(request);
    holds('a request carries its route context under a symbol described fastify.context', context !== undefined);
    const { preValidation, preHandler } = context!;
    holds('the context holds the route\'s preValidation hooks as an array', Array.isArray(preValidation) && preValidation.length === 1);
    holds('a route hook, as the context holds it, is known as ours (itself, or bound and named `bound <name>`)', isHookOf((preValidation as unknown[])[0], ourHook));
    holds('a route without preHandler hooks has none in its context', preHandler == null || (Array.isArray(preHandler) && preHandler.length === 0));
    holds('another function is not taken for ours', !isHookOf(() => undefined, ourHook));
  });

  it('hideBodyFromFastify: with its framing headers undefined, Fastify runs no content-type parser over a request\'s body', async () => {
    const url = await framingApp();
    bodies.hidden = 'unset';
    const answer = await fetch(`${url}/hidden`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    holds(`a POST whose framing headers were set aside in preParsing is answered (got ${answer.status})`, answer.status === 201);
    holds('Fastify parsed no body for it', bodies.hidden === undefined);
  });

  it('standInPayload: Fastify parses the stand-in and takes its receivedEncodedLength for the declared length', async () => {
    const url = await framingApp();
    for (const body of ['{"a":1}', '']) {
      bodies.standIn = 'unset';
      const answer = await fetch(`${url}/stand-in`, { method: 'DELETE', headers: { 'content-type': 'application/json' }, body });
      holds(`a DELETE of ${body.length} bytes read as the stand-in is answered (got ${answer.status})`, answer.status === 200);
      holds(`the stand-in's bytes are the body Fastify parsed (got ${JSON.stringify(bodies.standIn)})`, bodies.standIn === null);
    }
  });

  it('the application\'s preValidation and preHandler hooks are merged into the same context', async () => {
    const request = await postedRequest((fastify) => {
      fastify.addHook('preValidation', (_request: unknown, _reply: unknown, done: () => void) => done());
      fastify.addHook('preHandler', (_request: unknown, _reply: unknown, done: () => void) => done());
    });
    const { preValidation, preHandler } = routeContextOf(request)!;
    holds('an application preValidation hook joins the route\'s in its context', Array.isArray(preValidation) && preValidation.length === 2);
    holds('an application preHandler hook is in the route\'s context', Array.isArray(preHandler) && preHandler.length === 1);
  });
});
