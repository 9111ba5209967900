/**
 * A POST that nothing but the MCP controller would see is answered by the endpoint's edge itself
 * (lib/transport/http/express-edge.ts, fastify-edge.ts): on Express without walking the rest of the
 * router, on Fastify without the route's later steps and Nest's route handler. These apps show when it
 * may, and that whatever the application puts in the way (middleware on the path, a global
 * interceptor, a Fastify hook, `MOCAPI_INVOKER=nest`) still sees every POST, as without the shortcut.
 * Both adapters (`npm run test:fastify`); the router's own walk is checked on a real Express router.
 */
import 'reflect-metadata';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  Injectable,
  Module,
  type CallHandler,
  type ExecutionContext,
  type INestApplication,
  type MiddlewareConsumer,
  type NestInterceptor,
  type NestMiddleware,
  type NestModule,
  type Type,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { tracingChannel } from 'node:diagnostics_channel';
import type { AddressInfo } from 'node:net';
import type { Observable } from 'rxjs';
import { McpArg, McpModule, McpTool } from '../lib/index.js';
import { ExpressShortcut } from '../lib/transport/http/express-edge.js';
import { McpHttpEdge } from '../lib/transport/http/http-edge.js';
import { McpHttpTransport } from '../lib/transport/http/mcp-http.transport.js';
import { createHttpApp, onFastify } from './support/http-adapter.js';
import { callMcp } from './support/mcp-http.js';

@Injectable()
class EchoTools {
  @McpTool({ description: 'Says it back' })
  echo(@McpArg('message') message: string): string {
    return message;
  }
}

const SEEN = { middleware: 0, interceptor: 0, hook: 0 };

@Injectable()
class CountingMiddleware implements NestMiddleware {
  use(_req: unknown, _res: unknown, next: () => void): void {
    SEEN.middleware++;
    next();
  }
}

@Injectable()
class CountingInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    SEEN.interceptor++;
    return next.handle();
  }
}

const mcp = () => McpModule.forRoot({ name: 'shortcut', version: '1.0.0' });

@Module({ imports: [mcp()], providers: [EchoTools] })
class BareModule {}

@Module({ imports: [mcp()], providers: [EchoTools] })
class WithMiddlewareModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(CountingMiddleware).forRoutes('*path');
  }
}

@Module({ imports: [mcp()], providers: [EchoTools, { provide: APP_INTERCEPTOR, useClass: CountingInterceptor }] })
class WithGlobalInterceptorModule {}

describe('the edge answers a POST itself only when nothing else would see it', () => {
  let app: INestApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
    jest.restoreAllMocks();
    Object.assign(SEEN, { middleware: 0, interceptor: 0, hook: 0 });
  });

  /** Starts the app (`before` runs ahead of listen) and counts the POSTs the edge answered itself. */
  async function start(module: Type, before?: (app: INestApplication) => void): Promise<{ url: string; byEdge: () => number }> {
    const moduleRef = await Test.createTestingModule({ imports: [module] }).compile();
    app = createHttpApp(moduleRef, { logger: false });
    before?.(app);
    await app.listen(0, '127.0.0.1');
    const answered = jest.spyOn(app.get(McpHttpEdge), 'handlePost');
    const { port } = app.getHttpServer().address() as AddressInfo;
    return { url: `http://127.0.0.1:${port}/mcp`, byEdge: () => answered.mock.calls.length };
  }

  async function echo(url: string, ...messages: string[]): Promise<void> {
    for (const message of messages) {
      const response = await callMcp(url, 'tools/call', { name: 'echo', arguments: { message } });
      expect(response.status).toBe(200);
      expect(response.body.result.content).toEqual([{ type: 'text', text: message }]);
    }
  }

  it('with nothing but Nest between the edge and the MCP route, the edge answers (on Express from the second POST of a path on)', async () => {
    const { url, byEdge } = await start(BareModule);
    await echo(url, 'one', 'two', 'three', 'four');
    expect(byEdge()).toBe(onFastify ? 4 : 3);
    if (onFastify) return;
    // On Express another spelling of the path (a trailing slash) reaches the same route: the walk finds it learnt.
    await echo(`${url}/`, 'slash');
    expect(byEdge()).toBe(4);
  });

  it('a fault of the module\'s own while the edge answers is a logged -32603 with a reference, and the next POST is served', async () => {
    const { url, byEdge } = await start(BareModule);
    await echo(url, 'one');
    const transport = app!.get(McpHttpTransport);
    jest.spyOn(transport, 'handlePost').mockImplementationOnce(() => {
      throw new Error('a bug of the module');
    });
    const failed = await callMcp(url, 'tools/call', { name: 'echo', arguments: { message: 'two' } });
    expect(failed.status).toBe(500);
    expect(failed.body.error.code).toBe(-32603);
    expect(failed.body.error.message).not.toContain('a bug of the module');
    await echo(url, 'three');
    expect(byEdge()).toBe(onFastify ? 3 : 2);
  });

  it('a middleware of the application on the path sees every POST', async () => {
    const { url, byEdge } = await start(WithMiddlewareModule);
    await echo(url, 'one', 'two', 'three');
    expect(SEEN.middleware).toBe(3);
    // On Fastify, Nest's middleware runs at onRequest, before the body is read: the edge may still answer.
    expect(byEdge()).toBe(onFastify ? 3 : 0);
  });

  it('a global interceptor runs around the MCP route for every POST', async () => {
    const { url, byEdge } = await start(WithGlobalInterceptorModule);
    await echo(url, 'one', 'two', 'three');
    // The interceptor also runs around the echo method itself (an MCP handler): twice per call.
    expect(SEEN.interceptor).toBe(6);
    expect(byEdge()).toBe(0);
  });

  it('MOCAPI_INVOKER=nest keeps Nest\'s own path for every POST', async () => {
    process.env.MOCAPI_INVOKER = 'nest';
    try {
      const { url, byEdge } = await start(BareModule);
      await echo(url, 'one', 'two', 'three');
      expect(byEdge()).toBe(0);
    } finally {
      delete process.env.MOCAPI_INVOKER;
    }
  });

  (onFastify ? it : it.skip)('Fastify: a preHandler or preValidation hook of the application sees every POST', async () => {
    for (const hook of ['preHandler', 'preValidation']) {
      const { url, byEdge } = await start(BareModule, (nest) => {
        const fastify = nest.getHttpAdapter().getInstance() as { addHook(name: string, hook: (request: unknown, reply: unknown, done: () => void) => void): void };
        fastify.addHook(hook, (_request, _reply, done) => {
          SEEN.hook++;
          done();
        });
      });
      await echo(url, 'one', 'two', 'three');
      expect(SEEN.hook).toBe(3);
      expect(byEdge()).toBe(0);
      await app!.close();
      app = undefined;
      SEEN.hook = 0;
    }
  });

  (onFastify ? it.skip : it)('Express: a middleware put ahead of the MCP route once the app serves is seen from the next POST on', async () => {
    const { url, byEdge } = await start(BareModule);
    await echo(url, 'one', 'two');
    expect(byEdge()).toBe(1);
    const served = app!.getHttpAdapter().getInstance() as ExpressApp;
    served.use('/mcp', (_req: unknown, _res: unknown, next: Next) => {
      SEEN.middleware++;
      next();
    });
    served.router.stack.splice(1, 0, served.router.stack.pop()!);
    await echo(url, 'three', 'four');
    expect(SEEN.middleware).toBe(2);
    expect(byEdge()).toBe(1);
  });
});

type Next = () => void;
type Handler = (req: unknown, res: unknown, next: Next) => void;
interface ExpressApp {
  use(pathOrHandler: string | Handler | unknown, handler?: Handler): void;
  all(path: string, handler: () => void): void;
  post(path: string, handler: () => void): void;
  router: { stack: Array<{ route?: object }> };
}
/** Express itself (its types are not installed: Nest's adapter wraps it). */
const express = (await import('express' as string)).default as { (): ExpressApp; json(): Handler };

describe('ExpressShortcut on a real Express router', () => {
  const edge: Handler = (_req, _res, next) => next();

  /** An Express app whose stack starts with the edge, then what `build` adds; `ours` is the MCP route. */
  function routerWith(build: (app: ExpressApp) => void): { shortcut: ExpressShortcut; ours: object } {
    const app = express();
    app.use(edge);
    build(app);
    app.all('/mcp', () => undefined);
    const stack = app.router.stack;
    const shortcut = new ExpressShortcut(() => true);
    shortcut.attach(stack, edge);
    const ours = stack.at(-1)!.route!;
    shortcut.learn({ route: ours });
    return { shortcut, ours };
  }

  it('finds the learnt route past Nest-named parsers and layers of other paths', () => {
    const { shortcut, ours } = routerWith((app) => {
      app.use(express.json());
      app.use('/other', (_req: unknown, _res: unknown, next: Next) => next());
      app.post('/elsewhere', () => undefined);
    });
    expect(shortcut.routeFor('/mcp')).toBe(ours);
    expect(shortcut.routeFor('/MCP?x=1')).toBe(ours);
    expect(shortcut.routeFor('/nowhere/mcp')).toBeUndefined();
  });

  it('gives way to a middleware on the path, another route on the path, an unknown route, a tracer, or set adapter hooks', () => {
    expect(routerWith((app) => app.use((_req: unknown, _res: unknown, next: Next) => next())).shortcut.routeFor('/mcp')).toBeUndefined();
    expect(routerWith((app) => app.post('/mcp', () => undefined)).shortcut.routeFor('/mcp')).toBeUndefined();
    const unlearnt = new ExpressShortcut(() => true);
    const app = express();
    app.use(edge);
    app.all('/mcp', () => undefined);
    unlearnt.attach(app.router.stack, edge);
    expect(unlearnt.routeFor('/mcp')).toBeUndefined();

    const { shortcut, ours } = routerWith(() => undefined);
    expect(shortcut.routeFor('/mcp')).toBe(ours);
    let hooks = true;
    const hooked = routerWith(() => undefined);
    const withHooks = new ExpressShortcut(() => hooks);
    withHooks.attach((hooked.shortcut as unknown as { stack: [] }).stack, edge);
    withHooks.learn({ route: hooked.ours });
    expect(withHooks.routeFor('/mcp')).toBe(hooked.ours);
    hooks = false;
    expect(withHooks.routeFor('/mcp')).toBeUndefined();

    // A tracer of the router's own channel sees each layer run: the walk is kept for it.
    const channel = tracingChannel('express.router.request');
    const tracer = { start() {}, end() {}, asyncStart() {}, asyncEnd() {}, error() {} };
    channel.subscribe(tracer);
    try {
      expect(shortcut.routeFor('/mcp')).toBeUndefined();
    } finally {
      channel.unsubscribe(tracer);
    }
    expect(shortcut.routeFor('/mcp')).toBe(ours);
  });
});
