/**
 * On Express, a POST the rest of the application would not see is answered by the endpoint's edge
 * without walking the router to the controller (lib/transport/http/express-edge.ts). These apps show
 * when it may (nothing but Nest's parsers between the edge and the MCP route) and that anything the
 * application puts in the way, middleware, a global interceptor or another route on the path, still
 * sees every POST, as it would without the shortcut. Express only: Fastify has no such walk.
 */
import 'reflect-metadata';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import {
  Injectable,
  Module,
  type CallHandler,
  type ExecutionContext,
  type MiddlewareConsumer,
  type NestInterceptor,
  type NestMiddleware,
  type NestModule,
} from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { tracingChannel } from 'node:diagnostics_channel';
import type { Observable } from 'rxjs';
import { McpArg, McpModule, McpTool } from '../lib/index.js';
import { ExpressShortcut } from '../lib/transport/http/express-edge.js';
import { McpHttpEdge } from '../lib/transport/http/http-edge.js';
import { onFastify } from './support/http-adapter.js';
import { callMcp, startApp, type StartedApp } from './support/mcp-http.js';

@Injectable()
class EchoTools {
  @McpTool({ description: 'Says it back' })
  echo(@McpArg('message') message: string): string {
    return message;
  }
}

const SEEN = { middleware: 0, interceptor: 0 };

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

const describeExpress = onFastify ? describe.skip : describe;

describeExpress('Express: POSTs nothing else sees skip the router (and only those)', () => {
  let started: StartedApp | undefined;

  afterEach(async () => {
    await started?.app.close();
    started = undefined;
    jest.restoreAllMocks();
    Object.assign(SEEN, { middleware: 0, interceptor: 0 });
  });

  /** Starts the app and spies on the controller's word that the router brought a POST. */
  async function start(module: unknown): Promise<{ url: string; routed: () => number }> {
    started = await startApp([module]);
    const learn = jest.spyOn(started.app.get(McpHttpEdge).expressShortcut, 'learn');
    return { url: started.url, routed: () => learn.mock.calls.length };
  }

  async function echo(url: string, message: string): Promise<void> {
    const response = await callMcp(url, 'tools/call', { name: 'echo', arguments: { message } });
    expect(response.status).toBe(200);
    expect(response.body.result.content).toEqual([{ type: 'text', text: message }]);
  }

  it('with nothing but Nest between the edge and the MCP route, only the first POST takes the router', async () => {
    const { url, routed } = await start(BareModule);
    for (const message of ['one', 'two', 'three', 'four']) await echo(url, message);
    expect(routed()).toBe(1);
    // Another spelling of the path (a trailing slash) reaches the same route: the walk finds it learnt.
    await echo(`${url}/`, 'slash');
    expect(routed()).toBe(1);
  });

  it('a middleware of the application on the path sees every POST, so every POST takes the router', async () => {
    const { url, routed } = await start(WithMiddlewareModule);
    for (const message of ['one', 'two', 'three']) await echo(url, message);
    expect(SEEN.middleware).toBe(3);
    expect(routed()).toBe(3);
  });

  it('a global interceptor runs around the MCP route for every POST', async () => {
    const { url, routed } = await start(WithGlobalInterceptorModule);
    for (const message of ['one', 'two', 'three']) await echo(url, message);
    // The interceptor also runs around the echo method itself (an MCP handler): twice per call.
    expect(SEEN.interceptor).toBe(6);
    expect(routed()).toBe(3);
  });

  it('a middleware added once the app serves is seen from the next POST on', async () => {
    const { url, routed } = await start(BareModule);
    await echo(url, 'one');
    await echo(url, 'two');
    expect(routed()).toBe(1);
    // Mounted ahead of the MCP route (as an app's `use()` before init would be), on the endpoint's path.
    const app = started!.app.getHttpAdapter().getInstance() as ExpressApp;
    app.use('/mcp', (_req: unknown, _res: unknown, next: Next) => {
      SEEN.middleware++;
      next();
    });
    app.router.stack.splice(1, 0, app.router.stack.pop()!);
    await echo(url, 'three');
    await echo(url, 'four');
    expect(SEEN.middleware).toBe(2);
    expect(routed()).toBe(3);
  });
});

describe('ExpressShortcut on a real Express router', () => {
  const edge: Handler = (_req, _res, next) => next();

  /** An Express app whose stack starts with the edge, then what `build` adds; `ours` is the MCP route. */
  function routerWith(build: (app: ExpressApp) => void): { shortcut: ExpressShortcut; ours: object } {
    const app = express();
    app.use(edge);
    build(app);
    app.all('/mcp', () => undefined);
    const stack = app.router.stack;
    const shortcut = new ExpressShortcut(true, () => true);
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

  it('gives way to a middleware on the path, another route on the path, an unknown route, a tracer, set hooks, or the switch', () => {
    expect(routerWith((app) => app.use((_req: unknown, _res: unknown, next: Next) => next())).shortcut.routeFor('/mcp')).toBeUndefined();
    expect(routerWith((app) => app.post('/mcp', () => undefined)).shortcut.routeFor('/mcp')).toBeUndefined();
    const unlearnt = new ExpressShortcut(true, () => true);
    const app = express();
    app.use(edge);
    app.all('/mcp', () => undefined);
    unlearnt.attach(app.router.stack, edge);
    expect(unlearnt.routeFor('/mcp')).toBeUndefined();

    const { shortcut, ours } = routerWith(() => undefined);
    expect(shortcut.routeFor('/mcp')).toBe(ours);
    const off = new ExpressShortcut(false, () => true);
    off.attach([], edge);
    expect(off.routeFor('/mcp')).toBeUndefined();
    let hooks = true;
    const hooked = routerWith(() => undefined);
    const withHooks = new ExpressShortcut(true, () => hooks);
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
