import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { Catch, Injectable, Module, UseFilters, UseGuards, type CanActivate, type ExceptionFilter, type ExecutionContext } from '@nestjs/common';
import * as commonInternal from '@nestjs/common/internal';
import { APP_GUARD, DiscoveryModule, DiscoveryService, ExternalContextCreator, ModulesContainer, ApplicationConfig } from '@nestjs/core';
import * as coreInternal from '@nestjs/core/internal';
import { Test } from '@nestjs/testing';
import { readFileSync } from 'node:fs';
import { McpArg } from '../decorators/mcp-args.decorator.js';
import { setPreparation, type McpInvocation } from './mcp-invocation.js';
import { NestAdapter } from './nest-adapter.js';

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

@Module({ imports: [DiscoveryModule], providers: [Handlers, NestAdapter, { provide: APP_GUARD, useClass: GlobalGuard }] })
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
    for (const name of ['BaseExceptionFilterContext', 'ExecutionContextHost', 'GuardsConsumer', 'GuardsContextCreator', 'Injector', 'STATIC_CONTEXT']) {
      expect(coreInternal).toHaveProperty(name);
    }
    expect(typeof commonInternal.EXCEPTION_FILTERS_METADATA).toBe('string');
    expect(typeof commonInternal.selectExceptionFilterMetadata).toBe('function');
    // The context creators read only getModules() from the container stand-in; ApplicationConfig is public.
    expect(typeof coreInternal.BaseExceptionFilterContext.prototype.createContext).toBe('function');
    expect(typeof ApplicationConfig.prototype.getGlobalRequestFilters).toBe('function');
    expect(ModulesContainer).toBeDefined();
    expect(typeof ExternalContextCreator.prototype.create).toBe('function');
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
});
