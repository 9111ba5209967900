import 'reflect-metadata';
import { Injectable, Module, type DynamicModule, type INestApplication, type LoggerService } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { AddressInfo } from 'node:net';
import { createHttpApp, setAppJsonLimit } from '../support/http-adapter.js';
import { McpArg, McpModule, McpTool, ToolContext, type McpModuleOptions, type McpToolContext } from '../../lib/index.js';
import { BillingService } from '../../sample/tools/billing.service.js';
import { GreetingTools } from '../../sample/tools/greeting.tools.js';
import { InteractiveTools } from '../../sample/tools/interactive.tools.js';

/** What one run of a reliability tool observed, by its `tag` argument. */
export interface ToolRun {
  entered: boolean;
  aborted: boolean;
  abortReason?: string;
  /** Progress emitted (drip) or ticks slept (slow). */
  emitted: number;
  /** Progress emitted after the signal fired (must stay 0 for a cooperative tool). */
  emittedAfterAbort: number;
  /** `emitted` when the signal fired (-1 before): a tool that stopped at the abort has emitted no more since. */
  emittedAtAbort: number;
  finished: boolean;
  /** Releases handed to the `held` tool by `release(tag)` and not yet used. */
  releases: number;
  /** Wakes a `held` run waiting for a release. */
  wake?: () => void;
}

export const runs = new Map<string, ToolRun>();

export function run(tag: string): ToolRun {
  let entry = runs.get(tag);
  if (!entry) {
    entry = { entered: false, aborted: false, emitted: 0, emittedAfterAbort: 0, emittedAtAbort: -1, finished: false, releases: 0 };
    runs.set(tag, entry);
  }
  return entry;
}

/** Sleeps `ms`, waking early when `signal` fires. */
function nap(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Lets the `held` run of `tag` go one step further (a release given before it waits is kept for it). */
export function release(tag: string): void {
  const state = run(tag);
  state.releases++;
  state.wake?.();
}

/** Waits for a release of `tag` (and uses it), or for `signal`. */
function hold(state: ToolRun, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      state.wake = undefined;
      signal.removeEventListener('abort', done);
      resolve();
    };
    if (state.releases > 0 || signal.aborted) return done();
    state.wake = done;
    signal.addEventListener('abort', done, { once: true });
  }).then(() => {
    if (state.releases > 0) state.releases--;
  });
}

function watch(tag: string, ctx: McpToolContext): ToolRun {
  const state = run(tag);
  state.entered = true;
  ctx.signal.addEventListener('abort', () => {
    state.aborted = true;
    state.emittedAtAbort = state.emitted;
    const reason: unknown = ctx.signal.reason;
    state.abortReason = reason instanceof Error ? `${reason.name}: ${reason.message}` : String(reason);
  });
  return state;
}

/** Slow and streaming tools whose runs are observable through `runs`. */
@Injectable()
export class ReliabilityTools {
  @McpTool({ name: 'slow', description: 'Sleeps `ms` milliseconds in 20 ms ticks, stopping when aborted' })
  async slow(@McpArg('tag') tag: string, @McpArg('ms') ms: number, @ToolContext() ctx: McpToolContext) {
    const state = watch(tag, ctx);
    const deadline = Date.now() + ms;
    while (Date.now() < deadline && !ctx.signal.aborted) {
      await nap(20, ctx.signal);
      state.emitted++;
    }
    state.finished = true;
    return `slow ${tag} done`;
  }

  @McpTool({ name: 'drip', description: 'Emits `steps` progress events `gapMs` apart, stopping when aborted' })
  async drip(@McpArg('tag') tag: string, @McpArg('steps') steps: number, @McpArg('gapMs') gapMs: number, @ToolContext() ctx: McpToolContext) {
    const state = watch(tag, ctx);
    const progress = ctx.longProgress(steps);
    for (let step = 1; step <= steps; step++) {
      if (ctx.signal.aborted) break;
      progress.emit(step, `step ${step}`);
      state.emitted++;
      await nap(gapMs, ctx.signal);
    }
    // A careless tool keeps emitting after the abort: the transport must not write it.
    if (ctx.signal.aborted) {
      try {
        progress.emit(steps, 'after abort');
      } catch {
        // a closed progress reporter may throw; either way nothing reaches the wire
      }
      state.emittedAfterAbort++;
    }
    state.finished = true;
    return `drip ${tag} done`;
  }

  @McpTool({ name: 'held', description: 'Per step: emits progress, then waits until the test releases it (`release(tag)`), stopping when aborted' })
  async held(@McpArg('tag') tag: string, @McpArg('steps') steps: number, @ToolContext() ctx: McpToolContext) {
    const state = watch(tag, ctx);
    const progress = ctx.longProgress(steps);
    for (let step = 1; step <= steps && !ctx.signal.aborted; step++) {
      progress.emit(step, `step ${step}`);
      state.emitted++;
      await hold(state, ctx.signal);
    }
    state.finished = true;
    return `held ${tag} done`;
  }

  @McpTool({ name: 'explode', description: 'Throws an unexpected error (a TypeError with a stack)' })
  explode(): string {
    const nothing = undefined as unknown as { field: string };
    return nothing.field;
  }
}

export interface ReliabilityOptions {
  limits?: McpModuleOptions['limits'];
  mrtr?: McpModuleOptions['mrtr'];
  store?: McpModuleOptions['store'];
  /** The application's own JSON parser limit in bytes; default 2 MB (so the module's own 1 MiB limit is what answers). */
  bodyLimit?: number;
  /** Stamps `X-Instance: <instance>` on every response. */
  instance?: string;
  /** The port to listen on (a restart on the same address); default: a free one. */
  port?: number;
  logger?: LoggerService | false | Array<'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal'>;
}

@Module({})
export class ReliabilityFixtureModule {
  static forRoot(options: ReliabilityOptions = {}): DynamicModule {
    return {
      module: ReliabilityFixtureModule,
      imports: [
        McpModule.forRoot({
          name: 'reliability-fixture',
          version: '1.0.0',
          ...(options.limits ? { limits: options.limits } : {}),
          ...(options.mrtr ? { mrtr: options.mrtr } : {}),
          ...(options.store ? { store: options.store } : {}),
        }),
      ],
      providers: [GreetingTools, InteractiveTools, BillingService, ReliabilityTools],
    };
  }
}

export interface ReliabilityApp {
  app: INestApplication;
  port: number;
  url: string;
}

/** Starts the fixture (or `root`) on 127.0.0.1:<ephemeral> as a real app (Express or Fastify: `createHttpApp`). */
export async function startReliabilityApp(options: ReliabilityOptions = {}, root?: DynamicModule | (new (...args: never[]) => unknown)): Promise<ReliabilityApp> {
  const moduleRef = await Test.createTestingModule({ imports: [root ?? ReliabilityFixtureModule.forRoot(options)] }).compile();
  const app = createHttpApp(moduleRef, { logger: options.logger ?? false });
  setAppJsonLimit(app, options.bodyLimit ?? 2_000_000);
  if (options.instance !== undefined) {
    const instance = options.instance;
    app.use((_req: unknown, res: { setHeader(name: string, value: string): void }, next: () => void) => {
      res.setHeader('X-Instance', instance);
      next();
    });
  }
  await app.listen(options.port ?? 0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, port, url: `http://127.0.0.1:${port}/mcp` };
}

/** Asserts-free check that a response body leaks no internals: no stack frames, no file paths. */
export function leaksInternals(text: string): string | undefined {
  if (/\bat [^\s]+ \(|\n\s+at /.test(text)) return 'a stack frame';
  if (text.includes('/work/')) return 'a /work/ path';
  if (/\.(ts|js):\d+/.test(text)) return 'a source location';
  if (text.includes('node_modules')) return 'a node_modules path';
  return undefined;
}
