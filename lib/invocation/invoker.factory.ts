import { ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { ContextIdFactory, ModuleRef, type ContextId } from '@nestjs/core';
import { McpForbiddenError, McpUnauthorizedError } from '../auth/mcp-auth.errors.js';
import { isInputRequiredSignal } from '../mrtr/input-required.signal.js';
import { McpError } from '../protocol/mcp.error.js';
import { isPreparationFailure, type McpInvocation } from './mcp-invocation.js';
import { NestAdapter, type EnhancedMethod, type InstanceWrapper } from './nest-adapter.js';

/** A provider method found at start-up: what it takes to call it. @internal */
export interface InvocableMethod {
  wrapper: InstanceWrapper;
  instance: object;
  methodName: string;
  classRef: Function;
}

/** Calls a handler with an invocation; the result is the method's (or a filter's) value. @internal */
export type Invoker = (invocation: McpInvocation) => Promise<unknown>;

/**
 * Makes invokers for handler methods, one strategy per DI scope: a static provider is enhanced
 * once; a transient one gets an instance of MCP's own, made on first use; a request-scoped one
 * (or one depending on a request-scoped provider) gets a fresh instance per call, with `REQUEST`
 * bound to the HTTP request (the MCP request on stdio).
 * @internal
 */
@Injectable()
export class McpInvokerFactory {
  constructor(
    private readonly nest: NestAdapter,
    private readonly moduleRef: ModuleRef,
  ) {}

  /** Guards, interceptors, parameters and pipes, the method, then exception filters (see `filter`). */
  createInvoker(method: InvocableMethod): Invoker {
    const resolve = this.createResolver(method);
    return async (invocation) => {
      const enhanced = await resolve(invocation);
      try {
        return await enhanced.handler(invocation);
      } catch (error) {
        return this.filter(error, enhanced, invocation);
      }
    };
  }

  /**
   * For `hideWhenDenied`: runs only the method's guards (global, class, method) against a probe
   * invocation. A guard that returns false or throws hides the entry.
   */
  createGuardProbe(method: InvocableMethod): (invocation: McpInvocation) => Promise<boolean> {
    const resolve = this.createResolver(method);
    return async (invocation) => {
      try {
        return await this.nest.canActivate(await resolve(invocation), [invocation]);
      } catch {
        return false;
      }
    };
  }

  /**
   * The method as the invoker calls it: directly when nothing enhances it (`NestAdapter.direct`), else
   * through Nest's enhancer contexts. Static methods are resolved on their first call, as before.
   */
  private createResolver(method: InvocableMethod): (invocation: McpInvocation) => Promise<EnhancedMethod> {
    const { wrapper, instance, methodName, classRef } = method;
    const resolve = (target: object, contextId?: ContextId) =>
      this.nest.direct(wrapper, target, methodName, classRef, contextId) ?? this.nest.enhance(wrapper, target, methodName, classRef, contextId);
    if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
      let enhanced: EnhancedMethod | undefined;
      return async () => (enhanced ??= resolve(instance));
    }
    if (wrapper.isDependencyTreeStatic()) {
      let enhanced: Promise<EnhancedMethod> | undefined;
      return async () => {
        enhanced ??= this.nest.loadPerContext(wrapper, ContextIdFactory.create()).then((own) => resolve(own));
        return enhanced;
      };
    }
    return async (invocation) => {
      const request = invocation.httpRequest ?? invocation.request;
      const contextId = ContextIdFactory.getByRequest(request as object);
      this.moduleRef.registerRequestByContextId(request, contextId);
      const scoped = await this.nest.loadPerContext(wrapper, contextId);
      return resolve(scoped, contextId);
    };
  }

  /**
   * Gives the method's exception filters (`@UseFilters()` on the method or class, global filters)
   * the error. A filter that returns a value answers the call with it, as if the method had
   * returned it; one that throws replaces the error. Unhandled errors go on to the method family,
   * which answers (and logs) them once. The MRTR signal and failed argument checks never reach
   * filters. Guard denials (`ForbiddenException`, `UnauthorizedException`) become JSON-RPC errors.
   */
  private async filter(error: unknown, enhanced: EnhancedMethod, invocation: McpInvocation): Promise<unknown> {
    if (isInputRequiredSignal(error) || isPreparationFailure(invocation, error)) throw toAccessError(error);
    let failure = error;
    try {
      const handled = await this.nest.filter(enhanced, error, [invocation]);
      if (handled !== undefined) return handled;
    } catch (rethrown) {
      failure = rethrown;
    }
    throw toAccessError(failure);
  }
}

/** Nest's access exceptions (what a denying guard throws) → the module's JSON-RPC errors. */
function toAccessError(error: unknown): unknown {
  if (error instanceof McpError) return error;
  if (error instanceof ForbiddenException) return new McpForbiddenError(error.message);
  if (error instanceof UnauthorizedException) return new McpUnauthorizedError(error.message);
  return error;
}
