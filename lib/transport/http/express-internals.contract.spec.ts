import { afterEach, describe, it } from '@jest/globals';
import { Controller, Module, Post, Req, type INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { AddressInfo } from 'node:net';
import { contractOn, installedVersions } from '../../../test/support/framework-contract.js';
import {
  isNestBodyParser,
  isNestHooksLayer,
  isWrapped,
  layerMatches,
  layerRoute,
  layerRuns,
  nestHooksIdle,
  routerIsTraced,
  useAheadOfAll,
  type RouterLayer,
} from './express-internals.js';

/**
 * Contract of express-internals.ts with Express's router and Nest's ExpressAdapter, on a real Nest app
 * on Express and real HTTP: when an upgrade moves or changes what it reads, this fails, naming the versions.
 */
const holds = contractOn(installedVersions('@nestjs/platform-express', 'express', 'router'));

/** What the probe route saw of its request: its body when the edge ran, and `req.route`. */
const seen: { bodyAtEdge?: unknown; route?: unknown } = {};

@Controller('probe')
class ProbeController {
  @Post()
  probe(@Req() req: { route?: unknown }): string {
    seen.route = req.route;
    return 'ok';
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

let app: INestApplication | undefined;

async function start(): Promise<{ app: INestApplication; stack: RouterLayer[]; url: string; edge: Function }> {
  app = (await Test.createTestingModule({ imports: [ProbeModule] }).compile()).createNestApplication();
  const edge = (req: { body?: unknown }, _res: unknown, next: () => void) => {
    seen.bodyAtEdge = req.body;
    next();
  };
  const stack = useAheadOfAll(app.getHttpAdapter().getInstance(), edge);
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, stack, url: `http://127.0.0.1:${port}/probe`, edge };
}

function post(url: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
}

afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe('Express internals (express-internals.ts)', () => {
  it('useAheadOfAll: the app keeps its layers in router.stack, and a layer moved to its front runs before the body parsers', async () => {
    const { stack, url, edge } = await start();
    holds('useAheadOfAll leaves the edge first in app.router.stack', layerRuns(stack[0], edge));
    seen.bodyAtEdge = 'unset';
    await post(url);
    holds('the first layer of app.router.stack runs before Nest\'s JSON parser (req.body is not read yet)', seen.bodyAtEdge === undefined);
  });

  it('isNestBodyParser knows Nest\'s JSON and urlencoded parsers by their layer names; isNestHooksLayer knows its hooks middleware', async () => {
    const { stack } = await start();
    const names = stack.map((layer) => layer.name);
    holds(`Nest's JSON and urlencoded parsers are layers named jsonParser and urlencodedParser (got ${names.join(', ')})`, stack.filter(isNestBodyParser).length === 2);
    const hooks = stack.findIndex(isNestHooksLayer);
    holds('exactly one layer is ExpressAdapter\'s hooks middleware, found by its source text', hooks > 0 && stack.filter(isNestHooksLayer).length === 1);
    holds('the hooks middleware comes before the body parsers', hooks < stack.findIndex(isNestBodyParser));
    holds('no layer of a bare app is wrapped', !stack.some(isWrapped));
  });

  it('nestHooksIdle reads ExpressAdapter\'s hooks as its setters write them', async () => {
    const first = await start();
    const adapter = first.app.getHttpAdapter() as unknown as { setOnRequestHook(hook: Function): void; setOnResponseHook(hook: Function): void };
    holds('a fresh ExpressAdapter has no hook', nestHooksIdle(adapter));
    adapter.setOnRequestHook((_req: unknown, _res: unknown, done: () => void) => done());
    holds('setOnRequestHook sets the onRequestHook field', !nestHooksIdle(adapter));
    await first.app.close();
    const second = (await start()).app.getHttpAdapter() as unknown as { setOnResponseHook(hook: Function): void };
    second.setOnResponseHook(() => undefined);
    holds('setOnResponseHook sets the onResponseHook field', !nestHooksIdle(second));
  });

  it('layerMatches and layerRoute: a route layer matches its path and leads to the route the handler sees as req.route', async () => {
    const { stack, url } = await start();
    const routes = stack.filter((layer) => layerRoute(layer) !== undefined);
    holds('the controller\'s route is a layer of app.router.stack with a route', routes.length === 1);
    const [route] = routes;
    holds('a route layer answers match() for its own path', layerMatches(route, '/probe') === true);
    holds('a route layer answers match() for another path', layerMatches(route, '/elsewhere') === false);
    holds('every layer of app.router.stack has match()', stack.every((layer) => layerMatches(layer, '/probe') !== undefined));
    await post(url);
    holds('the route of the layer is what the handler gets as req.route', seen.route === layerRoute(route));
  });

  it('routerIsTraced: the router publishes its layers on the express.router.request tracing channel', async () => {
    const { url } = await start();
    holds('no tracer listens by default', !routerIsTraced());
    let published = 0;
    const onStart = () => published++;
    subscribe('tracing:express.router.request:start', onStart);
    try {
      holds('a subscriber to the channel\'s start events is seen', routerIsTraced());
      await post(url);
      holds('the router publishes a start event per layer it runs', published > 0);
    } finally {
      unsubscribe('tracing:express.router.request:start', onStart);
    }
  });
});
