import { HttpException, HttpStatus, Injectable } from '@nestjs/common';
import { ContextIdFactory, ModuleRef, type ContextId } from '@nestjs/core';
import { McpForbiddenError, McpUnauthorizedError } from '../auth/mcp-auth.errors.js';
import { isInputRequiredSignal } from '../mrtr/input-required.signal.js';
import { McpError } from '../protocol/mcp.error.js';
import { andThen, type MaybePromise } from '../protocol/maybe-promise.js';
import { isPreparationFailure, type McpInvocation } from './mcp-invocation.js';
import { NestAdapter, type EnhancedMethod, type InstanceWrapper, type ParameterStyle } from './nest-adapter.js';

/** A provider method found at start-up: what it takes to call it. @internal */
export interface InvocableMethod {
  wrapper: InstanceWrapper;
  instance: object;
  methodName: string;
  classRef: Function;
}

/** Calls a handler with an invocation; the result is the method's (or a filter's) value. @internal */
export type Invoker = (invocation: McpInvocation) => MaybePromise<unknown>;

/**
 * How a method other than an MCP handler is called (a controller route, lib/routes): its parameter
 * style, the arguments its guards, interceptors, pipes and filters see, and what a filter that
 * answered by writing the response (as REST filters do) left there. MCP handlers get `[invocation]`.
 * @internal
 */
export interface CallStyle extends ParameterStyle {
  args(invocation: McpInvocation): unknown[];
  /** After a filter returned nothing: the answer it wrote (`{ value }`), or the error it wrote (`{ error }`), else undefined. */
  written?(args: unknown[]): { value: unknown } | { error: unknown } | undefined;
}

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
  createInvoker(method: InvocableMethod, style?: CallStyle): Invoker {
    const resolve = this.createResolver(method, style);
    return (invocation) => andThen(resolve(invocation), (enhanced) => this.call(enhanced, invocation, style));
  }

  /** The method's value (a promise only when something waits), or what its filters make of its failure. */
  private call(enhanced: EnhancedMethod, invocation: McpInvocation, style?: CallStyle): MaybePromise<unknown> {
    // An MCP handler takes the invocation alone: no arguments array per call unless a filter needs one.
    const args = style?.args(invocation);
    try {
      const value = args ? enhanced.handler(...args) : enhanced.handler(invocation);
      if (!(value instanceof Promise)) return value;
      return value.catch((error: unknown) => this.filter(error, enhanced, invocation, args ?? [invocation], style));
    } catch (error) {
      return this.filter(error, enhanced, invocation, args ?? [invocation], style);
    }
  }

  /**
   * For `hideWhenDenied`: runs only the method's guards (global, class, method) against a probe
   * invocation. A guard that returns false or throws hides the entry.
   */
  createGuardProbe(method: InvocableMethod, style?: CallStyle): (invocation: McpInvocation) => Promise<boolean> {
    const resolve = this.createResolver(method, style);
    return async (invocation) => {
      try {
        return await this.nest.canActivate(await resolve(invocation), style ? style.args(invocation) : [invocation]);
      } catch {
        return false;
      }
    };
  }

  /**
   * The method as the invoker calls it: directly when nothing enhances it (`NestAdapter.direct`), else
   * through Nest's enhancer contexts. Static methods are resolved on their first call, and
   * then handed out as they are (no promise per call).
   */
  private createResolver(method: InvocableMethod, style?: ParameterStyle): (invocation: McpInvocation) => MaybePromise<EnhancedMethod> {
    const { wrapper, instance, methodName, classRef } = method;
    // A route called as a tool fills its parameters its own way (`style`): always through Nest's contexts.
    const resolve = (target: object, contextId?: ContextId) =>
      (style ? undefined : this.nest.direct(wrapper, target, methodName, classRef, contextId)) ??
      this.nest.enhance(wrapper, target, methodName, classRef, contextId, style);
    if (wrapper.isDependencyTreeStatic() && !wrapper.isTransient) {
      let enhanced: EnhancedMethod | undefined;
      return () => (enhanced ??= resolve(instance));
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
  private async filter(error: unknown, enhanced: EnhancedMethod, invocation: McpInvocation, args: unknown[], style?: CallStyle): Promise<unknown> {
    if (isInputRequiredSignal(error) || isPreparationFailure(invocation, error)) throw toAccessError(error);
    let failure = error;
    try {
      const handled = await this.nest.filter(enhanced, error, args);
      if (handled !== undefined) return handled;
      const written = style?.written?.(args);
      if (written && 'value' in written) return written.value;
      if (written) failure = written.error;
    } catch (rethrown) {
      failure = rethrown;
    }
    throw toAccessError(failure);
  }
}

/** Nest's access exceptions (what a denying guard throws: 403, 401) → the module's JSON-RPC errors. */
function toAccessError(error: unknown): unknown {
  if (error instanceof McpError || !(error instanceof HttpException)) return error;
  if (error.getStatus() === HttpStatus.FORBIDDEN) return new McpForbiddenError(error.message);
  if (error.getStatus() === HttpStatus.UNAUTHORIZED) return new McpUnauthorizedError(error.message);
  return error;
}
