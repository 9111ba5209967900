import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import {
  Body,
  Catch,
  Controller,
  createParamDecorator,
  Get,
  Injectable,
  Module,
  Next,
  Param,
  ParseIntPipe,
  Post,
  Query,
  Req,
  Res,
  Sse,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import * as commonInternal from '@nestjs/common/internal';
import { APP_GUARD, APP_PIPE, DiscoveryModule, DiscoveryService, ExternalContextCreator, ModulesContainer, ApplicationConfig } from '@nestjs/core';
import * as coreInternal from '@nestjs/core/internal';
import { Test } from '@nestjs/testing';
import { readFileSync } from 'node:fs';
import { McpArg } from '../decorators/mcp-args.decorator.js';
import { of } from 'rxjs';
import { setPreparation, type McpInvocation } from './mcp-invocation.js';
import { NestAdapter } from './nest-adapter.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { resolveMcpSettings } from '../config/mcp-settings.js';
import { contractOn, installedVersions } from '../../test/support/framework-contract.js';
import { readRoute, routeParamKind } from './nest-route-metadata.js';
import type { ParamsFactory } from '@nestjs/core';

/** The adapter as the module provides it, with the default settings. */
const ADAPTER = [NestAdapter, { provide: MCP_SETTINGS, useValue: resolveMcpSettings() }];

/**
 * Contract of nest-adapter.ts with @nestjs/core, pinned to the peer range: if a Nest release
 * changes what the adapter relies on, this fails here, by name, before any e2e test does.
 */
const order: string[] = [];

@Injectable()
class ClassBoundGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    order.push('guard');
    return context.getType<string>() === 'mcp';
  }
}

@Injectable()
class GlobalGuard implements CanActivate {
  canActivate(): boolean {
    order.push('global guard');
    return true;
  }
}

class Refused extends Error {}

@Catch(Refused)
class RefusedFilter implements ExceptionFilter {
  catch(error: Refused): string {
    return `filtered: ${error.message}`;
  }
}

@Injectable()
@UseGuards(ClassBoundGuard)
class Handlers {
  @UseFilters(RefusedFilter)
  run(@McpArg('word') word: string): string {
    order.push(`method(${word})`);
    return word;
  }
}

@Module({ imports: [DiscoveryModule], providers: [Handlers, ...ADAPTER, { provide: APP_GUARD, useClass: GlobalGuard }] })
class ContractModule {}

describe('Nest adapter contract (@nestjs/core peer range)', () => {
  it('the installed @nestjs/core is inside the declared peer range', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const installed = JSON.parse(readFileSync(new URL('../../node_modules/@nestjs/core/package.json', import.meta.url), 'utf8')).version;
    // The peer range is a caret range (`^12.0.0`): same major, not older.
    const range = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(manifest.peerDependencies['@nestjs/core'])!;
    const [major, minor, patch] = installed.split('.').map(Number);
    expect(major).toBe(Number(range[1]));
    expect(minor * 1e6 + patch).toBeGreaterThanOrEqual(Number(range[2]) * 1e6 + Number(range[3]));
  });

  it('@nestjs/core/internal and @nestjs/common/internal export what the adapter imports', () => {
    const holds = contractOn(installedVersions('@nestjs/core'));
    for (const name of ['BaseExceptionFilterContext', 'ExecutionContextHost', 'GuardsConsumer', 'GuardsContextCreator', 'Injector', 'STATIC_CONTEXT']) {
      holds(`@nestjs/core/internal exports ${name}`, name in coreInternal);
    }
    holds('@nestjs/common/internal exports EXCEPTION_FILTERS_METADATA', typeof commonInternal.EXCEPTION_FILTERS_METADATA === 'string');
    holds('@nestjs/common/internal exports selectExceptionFilterMetadata', typeof commonInternal.selectExceptionFilterMetadata === 'function');
    // The context creators read only getModules() from the container stand-in; ApplicationConfig is public.
    holds('BaseExceptionFilterContext has createContext()', typeof coreInternal.BaseExceptionFilterContext.prototype.createContext === 'function');
    holds('ApplicationConfig has getGlobalRequestFilters()', typeof ApplicationConfig.prototype.getGlobalRequestFilters === 'function');
    holds('@nestjs/core exports ModulesContainer', ModulesContainer !== undefined);
    holds('ExternalContextCreator has create()', typeof ExternalContextCreator.prototype.create === 'function');
  });

  it('guards (global and DI-bound class guards) run first; a Promise from the params factory is awaited before the method; filters resolve', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [ContractModule] }).compile();
    const app = moduleRef.createNestApplication();
    await app.init();
    try {
      const adapter = app.get(NestAdapter);
      const wrapper = app.get(DiscoveryService).getProviders().find((candidate) => candidate.metatype === Handlers)!;
      const enhanced = adapter.enhance(wrapper, wrapper.instance as object, 'run', Handlers);
      expect(enhanced.guards.map((guard) => guard.constructor)).toEqual([GlobalGuard, ClassBoundGuard]);

      const invocation = { request: { jsonrpc: '2.0', id: 1, method: 'tools/call' }, arguments: { word: 'raw' } } as unknown as McpInvocation;
      setPreparation(invocation, async () => {
        order.push('prepare');
        invocation.arguments = { word: 'checked' };
      });
      order.length = 0;
      expect(await adapter.canActivate(enhanced, [invocation])).toBe(true);
      expect(order).toEqual(['global guard', 'guard']);

      order.length = 0;
      expect(await enhanced.handler(invocation)).toBe('checked');
      expect(order).toEqual(['global guard', 'guard', 'prepare', 'method(checked)']);

      expect(await adapter.filter(enhanced, new Refused('no'), [invocation])).toBe('filtered: no');
      expect(await adapter.filter(enhanced, new Error('other'), [invocation])).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('readRoute reads a controller route from Nest\'s metadata: its method, joined path and parameters by kind', () => {
    const Custom = createParamDecorator(() => 'custom');
    @Controller('/items/')
    class Items {
      @Post(':id/tags')
      tag(@Param('id', ParseIntPipe) _id: number, @Body() _body: object, @Query('q') _q: string, @Req() _req: object, @Custom() _custom: string): void {}
      @Get()
      raw(@Res() _res: object, @Next() _next: object): void {}
      @Sse('events')
      events(): void {}
      plain(): void {}
    }
    const tag = readRoute(Items, 'tag', Items.prototype.tag)!;
    expect({ method: tag.method, path: tag.path, sse: tag.sse, render: tag.render }).toEqual({ method: 'POST', path: '/items/:id/tags', sse: false, render: false });
    expect(tag.params.map(({ index, kind, data }) => ({ index, kind, data }))).toEqual([
      { index: 0, kind: 'param', data: 'id' },
      { index: 1, kind: 'body', data: undefined },
      { index: 2, kind: 'query', data: 'q' },
      { index: 3, kind: 'request', data: undefined },
      { index: 4, kind: 'custom', data: undefined },
    ]);
    expect(tag.params[0].pipes).toEqual([ParseIntPipe]);
    expect(readRoute(Items, 'raw', Items.prototype.raw)!.params.map((param) => param.kind)).toEqual(['response', 'next']);
    expect(readRoute(Items, 'events', Items.prototype.events)!.sse).toBe(true);
    expect(readRoute(Items, 'plain', Items.prototype.plain)).toBeUndefined();
    expect([0, 5, 12, 100, 104, Number.NaN].map(routeParamKind)).toEqual(['request', 'param', 'rawBody', 'mcp', 'mcp', 'custom']);
  });

  it('a controller method gets its guards and pipes given by class (ExternalContextCreator finds modules by their providers only)', async () => {
    const seen: unknown[] = [];
    @Controller('c')
    @UseGuards(ClassBoundGuard)
    class Routes {
      @Get(':n')
      read(@Param('n', ParseIntPipe) n: number): number {
        seen.push(n);
        return n;
      }
    }
    @Module({ imports: [DiscoveryModule], controllers: [Routes], providers: [...ADAPTER] })
    class RoutesModule {}
    const moduleRef = await Test.createTestingModule({ imports: [RoutesModule] }).compile();
    const app = moduleRef.createNestApplication();
    await app.init();
    try {
      const adapter = app.get(NestAdapter);
      const wrapper = app.get(DiscoveryService).getControllers().find((candidate) => candidate.metatype === Routes)!;
      const params: ParamsFactory = { exchangeKeyForValue: () => '42' };
      const enhanced = adapter.enhance(wrapper, wrapper.instance as object, 'read', Routes, undefined, { paramsFactory: params, contextType: 'http' });
      expect(enhanced.guards.map((guard) => guard.constructor)).toEqual([ClassBoundGuard]);
      // ClassBoundGuard lets only 'mcp' through: under 'http' it denies, so the method does not run.
      await expect(enhanced.handler({})).rejects.toThrow('Forbidden resource');
      expect(seen).toEqual([]);
      const mcp = adapter.enhance(wrapper, wrapper.instance as object, 'read', Routes, undefined, { paramsFactory: params, contextType: 'mcp' });
      expect(await mcp.handler({})).toBe(42);
      expect(seen).toEqual([42]);
    } finally {
      await app.close();
    }
  });
});

@Injectable()
class PassThrough implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle();
  }
}

@Injectable()
class Identity implements PipeTransform {
  transform(value: unknown): unknown {
    return value;
  }
}

const Custom = createParamDecorator(() => 'custom');

@Injectable()
class Plain {
  run(@McpArg('word') word: string, @McpArg('count') count: number): string {
    return `${word}×${count}`;
  }
  bare(invocation: McpInvocation): string | undefined {
    return invocation.name;
  }
  observed(@McpArg('word') word: string) {
    return of('first', word);
  }
  @UseFilters(RefusedFilter)
  fails(): never {
    throw new Refused('plain');
  }
  @UseInterceptors(PassThrough)
  intercepted(@McpArg('word') word: string): string {
    return word;
  }
  @UsePipes(Identity)
  piped(@McpArg('word') word: string): string {
    return word;
  }
  pipedParameter(@McpArg('word', {}, Identity) word: string): string {
    return word;
  }
  custom(@Custom() value: string): string {
    return value;
  }
}

@Injectable()
@UseGuards(ClassBoundGuard)
class Guarded extends Plain {}

@Module({ imports: [DiscoveryModule], providers: [Plain, Guarded, ...ADAPTER] })
class PlainModule {}

@Module({ imports: [DiscoveryModule], providers: [Plain, ...ADAPTER, { provide: APP_PIPE, useClass: Identity }] })
class GlobalPipeModule {}

async function adapterFor(module: Function) {
  const app = (await Test.createTestingModule({ imports: [module as never] }).compile()).createNestApplication();
  await app.init();
  const wrapperOf = (type: Function) => app.get(DiscoveryService).getProviders().find((candidate) => candidate.metatype === type)!;
  return { app, adapter: app.get(NestAdapter), wrapperOf };
}

function invocationWith(args: Record<string, unknown>): McpInvocation {
  const invocation = { request: { jsonrpc: '2.0', id: 1, method: 'tools/call' }, name: 'run', arguments: args } as unknown as McpInvocation;
  setPreparation(invocation, async () => undefined);
  return invocation;
}

describe('direct calls of methods nothing enhances (the same outcome as through ExternalContextCreator)', () => {
  it('a plain method is called directly, with the same parameters, invocation, Observable settling and filters as create() gives', async () => {
    const { app, adapter, wrapperOf } = await adapterFor(PlainModule);
    try {
      const wrapper = wrapperOf(Plain);
      const instance = wrapper.instance as object;
      for (const method of ['run', 'bare', 'observed', 'fails']) {
        const direct = adapter.direct(wrapper, instance, method, Plain);
        const enhanced = adapter.enhance(wrapper, instance, method, Plain);
        if (!direct) throw new Error(`${method}: no direct path for a method nothing enhances`);
        // A direct handler returns a value or throws without a promise when nothing waits; the invoker takes both as the promise would.
        const outcome = (handler: (invocation: McpInvocation) => unknown) =>
          Promise.resolve()
            .then(() => handler(invocationWith({ word: 'w', count: 2 })))
            .then(
              (value) => ({ value }),
              async (error: unknown) => ({ error: String(error), filtered: await adapter.filter(direct, error, []) }),
            );
        expect(await outcome(direct.handler)).toEqual(await outcome(enhanced.handler));
      }
      expect(await adapter.direct(wrapper, instance, 'run', Plain)!.handler(invocationWith({ word: 'w', count: 2 }))).toBe('w×2');
      expect(await adapter.direct(wrapper, instance, 'bare', Plain)!.handler(invocationWith({}))).toBe('run');
      expect(await adapter.direct(wrapper, instance, 'observed', Plain)!.handler(invocationWith({ word: 'last' }))).toBe('last');
      expect(adapter.direct(wrapper, instance, 'fails', Plain)!.filters()).toHaveLength(1);
    } finally {
      await app.close();
    }
  });

  it('an interceptor, a method or parameter pipe, a custom parameter decorator or a class guard sends the method through Nest', async () => {
    const { app, adapter, wrapperOf } = await adapterFor(PlainModule);
    try {
      const plain = wrapperOf(Plain);
      for (const method of ['intercepted', 'piped', 'pipedParameter', 'custom']) {
        expect(adapter.direct(plain, plain.instance as object, method, Plain)).toBeUndefined();
      }
      const guarded = wrapperOf(Guarded);
      expect(adapter.direct(guarded, guarded.instance as object, 'run', Guarded)).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('a global enhancer (APP_PIPE here; APP_GUARD and app.useGlobal*() alike) sends every method through Nest', async () => {
    const { app, adapter, wrapperOf } = await adapterFor(GlobalPipeModule);
    try {
      const plain = wrapperOf(Plain);
      expect(adapter.noGlobalEnhancers()).toBe(false);
      expect(adapter.direct(plain, plain.instance as object, 'run', Plain)).toBeUndefined();
    } finally {
      await app.close();
    }
    const other = await adapterFor(PlainModule);
    try {
      const plain = other.wrapperOf(Plain);
      expect(other.adapter.direct(plain, plain.instance as object, 'run', Plain)).toBeDefined();
      other.app.useGlobalInterceptors(new PassThrough());
      expect(other.adapter.direct(plain, plain.instance as object, 'run', Plain)).toBeUndefined();
    } finally {
      await other.app.close();
    }
  });
});
