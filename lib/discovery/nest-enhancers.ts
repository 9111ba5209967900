import type { CanActivate } from '@nestjs/common';
import type { ExternalContextCreator } from '@nestjs/core';
import type { ExternalExceptionFilterContext } from '@nestjs/core/exceptions/external-exception-filter-context.js';
import type { ExternalExceptionsHandler } from '@nestjs/core/exceptions/external-exceptions-handler.js';
import type { GuardsConsumer } from '@nestjs/core/guards/guards-consumer.js';
import type { GuardsContextCreator } from '@nestjs/core/guards/guards-context-creator.js';

type ContextId = { id: number };

/**
 * The two pieces of Nest's enhancer machinery the module drives itself: the guards (for
 * `hideWhenDenied` probes, which must not run the handler) and the exception filters (so that a
 * filter's answer is used while the unhandled rest is logged once, by the module, with the
 * request id, instead of by Nest's `ExternalExceptionFilter` without it). Both are the
 * `ExternalContextCreator`'s own instances, so global, class and method enhancers resolve exactly
 * as for the handler itself.
 * @internal
 */
export class NestEnhancers {
  private readonly guardsContextCreator: GuardsContextCreator;
  private readonly guardsConsumer: GuardsConsumer;
  private readonly filtersContextCreator: ExternalExceptionFilterContext;

  constructor(externalContextCreator: ExternalContextCreator) {
    const internals = externalContextCreator as unknown as {
      guardsContextCreator?: GuardsContextCreator;
      guardsConsumer?: GuardsConsumer;
      filtersContextCreator?: ExternalExceptionFilterContext;
    };
    if (!internals.guardsContextCreator || !internals.guardsConsumer || !internals.filtersContextCreator) {
      throw new Error('nest-mcp: this @nestjs/core version has an unexpected ExternalContextCreator (guards / filters not found)');
    }
    this.guardsContextCreator = internals.guardsContextCreator;
    this.guardsConsumer = internals.guardsConsumer;
    this.filtersContextCreator = internals.filtersContextCreator;
  }

  guards(instance: object, callback: Function, moduleKey: string, contextId?: ContextId, inquirerId?: string): CanActivate[] {
    return this.guardsContextCreator.create(instance as never, callback as never, moduleKey, contextId as never, inquirerId);
  }

  /** Runs guards as `ExternalContextCreator` does; false when one denies. */
  tryActivate(guards: CanActivate[], args: unknown[], instance: object, callback: Function, contextType: string): Promise<boolean> {
    return this.guardsConsumer.tryActivate(guards, args, instance as never, callback as never, contextType);
  }

  filters(instance: object, callback: Function, moduleKey: string, contextId?: ContextId, inquirerId?: string): ExternalExceptionsHandler {
    return this.filtersContextCreator.create(instance as never, callback as never, moduleKey, contextId as never, inquirerId);
  }
}
