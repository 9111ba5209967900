/**
 * The one file that knows Nest's internals. Everything else in nest-mcp uses the public API of
 * @nestjs/common and @nestjs/core, or this adapter.
 *
 * Handlers run through the public `ExternalContextCreator.create()` (guards, interceptors, pipes,
 * the MCP params factory), with `filters: false`. Two needs are not met by `create()` alone:
 *
 * - `hideWhenDenied` list probes run a method's guards WITHOUT running the method;
 * - exception filters: a filter's answer is used, but the MRTR signal and failed argument checks
 *   must never reach a filter (a catch-all filter would swallow them), and the unhandled rest is
 *   logged once, by the module, with the request id and a reference. `filters: true` (what
 *   @nestjs/graphql does) hands every error to Nest's `ExternalExceptionsHandler`, whose fallback
 *   (`ExternalExceptionFilter`) logs each unhandled non-intrinsic error itself, without the request
 *   id; the module's own log would make two, and a catch-all filter would see the signal.
 *
 * So the adapter makes its own guards and filters contexts from the classes Nest exports for
 * sibling packages in `@nestjs/core/internal` (GuardsContextCreator, GuardsConsumer,
 * BaseExceptionFilterContext), fed with public objects: the injected `ModulesContainer` (the only
 * thing those creators read from the container, via `getModules()`) and `ApplicationConfig`
 * (global enhancers). No private field of a Nest class is read. Global, class and method enhancers,
 * request-scoped ones included, resolve exactly as for controllers.
 *
 * The common handler has no enhancer at all (no guard, interceptor or pipe: global, class, method or
 * parameter) and no custom parameter decorator. For it `create()` would build, per call, closures, a
 * null array, an interceptor chain and a promise per parameter around one `callback.apply()`: such a
 * method is called *directly* (`direct()`), with its MCP parameters read as the params factory reads
 * them, and its result settled as `create()` settles it (an Observable's last value). Exception filters
 * are the invoker's either way. `mocapi.invoker=nest` turns the direct path off (the test suites
 * run the enhancer, filter and scope specs both ways).
 *
 * `nest-adapter.contract.spec.ts` pins every assumption made here to the peer range of
 * @nestjs/core: it fails loudly if a Nest release changes one.
 * @internal
 */
import { Inject, Injectable, type CanActivate, type ExceptionFilter } from '@nestjs/common';
import {
  CUSTOM_ROUTE_ARGS_METADATA,
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
  selectExceptionFilterMetadata,
  type ExceptionFilterMetadata,
} from '@nestjs/common/internal';
import { ApplicationConfig, ExternalContextCreator, ModulesContainer, type ContextId } from '@nestjs/core';
import {
  BaseExceptionFilterContext,
  ContextUtils,
  ExecutionContextHost,
  GuardsConsumer,
  GuardsContextCreator,
  Injector,
  STATIC_CONTEXT,
  type InstanceWrapper,
} from '@nestjs/core/internal';
import { MCP_CONTEXT_TYPE, MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_PARAM_ARGS_METADATA } from './nest-route-metadata.js';
import { isObservable, lastValueFrom } from 'rxjs';
import { andThen, isThenable } from '../protocol/maybe-promise.js';
import { prepareNow, type McpInvocation } from './mcp-invocation.js';
import { mcpParamValue, McpParamsFactory } from './mcp-params.factory.js';
import type { ParamsFactory } from '@nestjs/core';

export { ExecutionContextHost, type ContextId, type InstanceWrapper };

type Method = (...args: unknown[]) => unknown;

/** The container stand-in the context creators are built with: they only call `getModules()`. */
function containerOf(modules: ModulesContainer): never {
  return { getModules: () => modules } as never;
}

/** Exception filters of one method: method, class and global ones, most specific first, as Nest orders them. */
class McpFiltersContext extends BaseExceptionFilterContext {
  constructor(
    modules: ModulesContainer,
    private readonly config: ApplicationConfig,
  ) {
    super(containerOf(modules));
  }

  create(instance: object, callback: Method, moduleKey: string, contextId: ContextId, inquirerId?: string): ExceptionFilterMetadata[] {
    this.moduleContext = moduleKey;
    return this.createContext<unknown[], ExceptionFilterMetadata[]>(instance, callback, EXCEPTION_FILTERS_METADATA, contextId, inquirerId).reverse();
  }

  override getGlobalMetadata<T extends unknown[]>(contextId: ContextId = STATIC_CONTEXT, inquirerId?: string): T {
    const global: ExceptionFilter[] = this.config.getGlobalFilters();
    if (contextId === STATIC_CONTEXT && !inquirerId) return global as T;
    const scoped = this.config.getGlobalRequestFilters().flatMap((wrapper) => {
      const host = wrapper.getInstanceByContextId(this.getContextId(contextId, wrapper), inquirerId);
      return host && this.isInstantiated(wrapper, host) ? [host.instance] : [];
    });
    return [...global, ...scoped] as T;
  }
}

/** What the invoker needs from Nest for one method on one instance. @internal */
export interface EnhancedMethod {
  /** Guards → interceptors → parameter extraction (the call's preparation) and pipes → the method. */
  handler: (...args: unknown[]) => unknown;
  guards: CanActivate[];
  /** The exception filters, resolved on first use (a direct call resolves them only when it fails). */
  filters(): ExceptionFilterMetadata[];
  callback: Method;
  instance: object;
  /** What `context.getType()` says to its guards, interceptors and filters. */
  contextType: string;
}

/**
 * How a method's parameters are filled and what its enhancers see: MCP handlers by default; a
 * controller route called as a tool (lib/routes) gets its own params factory and `'http'`. @internal
 */
export interface ParameterStyle {
  paramsFactory: ParamsFactory;
  contextType: string;
}

/** One MCP parameter of a method: where it goes and what it reads. */
interface McpParameter {
  index: number;
  type: number;
  data: unknown;
}

/** A method's MCP parameter metadata, as `ExternalContextCreator` reads it. */
type ParamMetadata = Record<string, { index: number; data?: unknown; pipes?: unknown[] }>;

/** @internal */
@Injectable()
export class NestAdapter {
  private readonly paramsFactory = new McpParamsFactory();
  private readonly injector = new Injector();
  private readonly guardsContext: GuardsContextCreator;
  private readonly guardsConsumer = new GuardsConsumer();
  private readonly filtersContext: McpFiltersContext;
  private readonly contextUtils = new ContextUtils();
  /** Per method: its MCP parameters when it is plain (`plainParameters`), `undefined` when it is not. */
  private readonly plain = new WeakMap<Method, McpParameter[] | undefined>();
  /** `mocapi.invoker=nest`: every call takes Nest's own path (enhancer contexts, and on Express the router), so tests can run both. */
  readonly nestPathOnly: boolean;

  constructor(
    @Inject(MCP_SETTINGS) settings: McpSettings,
    private readonly externalContextCreator: ExternalContextCreator,
    modules: ModulesContainer,
    private readonly config: ApplicationConfig,
  ) {
    this.nestPathOnly = settings.invoker === 'nest';
    this.guardsContext = new GuardsContextCreator(containerOf(modules), config);
    this.filtersContext = new McpFiltersContext(modules, config);
  }

  /** The method with its guards, interceptors and pipes; its filters resolved for `handleError`. */
  enhance(wrapper: InstanceWrapper, instance: object, methodName: string, classRef: Function, contextId?: ContextId, style?: ParameterStyle): EnhancedMethod {
    const contextType = style?.contextType ?? MCP_CONTEXT_TYPE;
    const callback = (Object.getPrototypeOf(instance) as Record<string, Method>)[methodName];
    const inquirerId = inquirerOf(wrapper, instance, classRef, contextId);
    const moduleKey = this.moduleKeyOf(wrapper, classRef);
    const handler = this.contextCreatorFor(wrapper, moduleKey).create(
      instance,
      callback,
      methodName,
      MCP_PARAM_ARGS_METADATA,
      style?.paramsFactory ?? this.paramsFactory,
      contextId,
      contextId ? wrapper.id : undefined,
      { guards: true, interceptors: true, filters: false },
      contextType,
    ) as EnhancedMethod['handler'];
    const scope = contextId ?? STATIC_CONTEXT;
    const filters = this.filtersContext.create(instance, callback, moduleKey, scope, inquirerId);
    return {
      handler,
      callback,
      instance,
      contextType,
      guards: this.guardsContext.create(instance, callback, moduleKey, scope, inquirerId),
      filters: () => filters,
    };
  }

  /**
   * The method called directly, when nothing would enhance it (`plainMethod`, then `noGlobalEnhancers`
   * at the time of the call: a global enhancer added later turns the direct path off, as Nest would
   * see it); `undefined` otherwise, to go through `enhance()`.
   */
  direct(wrapper: InstanceWrapper, instance: object, methodName: string, classRef: Function, contextId?: ContextId): EnhancedMethod | undefined {
    if (this.nestPathOnly || !this.noGlobalEnhancers()) return undefined;
    const callback = (Object.getPrototypeOf(instance) as Record<string, Method>)[methodName];
    const parameters = this.plainParameters(instance, callback, methodName, classRef);
    if (!parameters) return undefined;
    let filters: ExceptionFilterMetadata[] | undefined;
    return {
      handler: directHandler(instance, callback, parameters),
      callback,
      instance,
      contextType: MCP_CONTEXT_TYPE,
      guards: [],
      filters: () =>
        (filters ??= this.filtersContext.create(
          instance,
          callback,
          this.moduleKeyOf(wrapper, classRef),
          contextId ?? STATIC_CONTEXT,
          inquirerOf(wrapper, instance, classRef, contextId),
        )),
    };
  }

  /** No global guard, interceptor or pipe (static, or request-scoped such as an `APP_GUARD` with `Scope.REQUEST`). */
  noGlobalEnhancers(): boolean {
    return this.noGlobalGuardsOrInterceptors() && this.config.getGlobalPipes().length === 0 && this.config.getGlobalRequestPipes().length === 0;
  }

  /** No global guard or interceptor: what a route whose parameters are only `@Req()` and `@Res()` (which no pipe sees) would run. */
  noGlobalGuardsOrInterceptors(): boolean {
    const config = this.config;
    return (
      config.getGlobalGuards().length === 0 &&
      config.getGlobalRequestGuards().length === 0 &&
      config.getGlobalInterceptors().length === 0 &&
      config.getGlobalRequestInterceptors().length === 0
    );
  }

  /**
   * The method's MCP parameters when neither its class nor the method carries guards, interceptors or
   * pipes, and no parameter has pipes or a custom decorator (which needs an ExecutionContext); else
   * `undefined`. Metadata is fixed once the classes are declared, so the answer is kept per method.
   */
  private plainParameters(instance: object, callback: Method, methodName: string, classRef: Function): McpParameter[] | undefined {
    const known = this.plain.get(callback);
    if (known !== undefined || this.plain.has(callback)) return known;
    const classes = new Set([classRef, (instance as { constructor: Function }).constructor, (Object.getPrototypeOf(instance) as { constructor: Function }).constructor]);
    const enhanced = [GUARDS_METADATA, INTERCEPTORS_METADATA, PIPES_METADATA].some(
      (key) => hasEntries(Reflect.getMetadata(key, callback)) || [...classes].some((target) => hasEntries(Reflect.getMetadata(key, target))),
    );
    const metadata = (this.contextUtils.reflectCallbackMetadata(instance, methodName, MCP_PARAM_ARGS_METADATA) ?? {}) as ParamMetadata;
    const keys = Object.keys(metadata);
    const plain = !enhanced && keys.every((key) => !key.includes(CUSTOM_ROUTE_ARGS_METADATA) && !hasEntries(metadata[key].pipes));
    const parameters = plain ? keys.map((key) => ({ index: metadata[key].index, type: Number(this.contextUtils.mapParamType(key)), data: metadata[key].data })) : undefined;
    this.plain.set(callback, parameters);
    return parameters;
  }

  private moduleKeyOf(wrapper: InstanceWrapper, classRef: Function): string {
    return wrapper.host?.token ?? this.externalContextCreator.getContextModuleKey(classRef);
  }

  /**
   * `ExternalContextCreator` finds a method's module among the modules' *providers*: a controller's
   * module is never found there, and then every guard, interceptor and pipe given by class
   * (`@UseGuards(RolesGuard)`, `ParseIntPipe`) resolves to nothing and is silently left out. For a
   * controller, the creator is asked through an object that names its module (what `create()` reads,
   * synchronously, before anything else); everything else is the shared creator's.
   */
  private contextCreatorFor(wrapper: InstanceWrapper, moduleKey: string): ExternalContextCreator {
    if (!wrapper.host?.controllers.has(wrapper.token)) return this.externalContextCreator;
    return Object.create(this.externalContextCreator, { getHostModuleKey: { value: () => moduleKey } }) as ExternalContextCreator;
  }

  /** Runs only the guards, as `create()` does before the method; false when one denies. */
  canActivate(method: EnhancedMethod, args: unknown[]): Promise<boolean> {
    return this.guardsConsumer.tryActivate(method.guards, args, method.instance, method.callback, method.contextType);
  }

  /**
   * Hands `error` to the first filter that catches it. Returns what the filter returned
   * (`undefined`: no filter, or it declined); a filter that throws replaces the error.
   */
  async filter(method: EnhancedMethod, error: unknown, args: unknown[]): Promise<unknown> {
    const selected = selectExceptionFilterMetadata(method.filters(), error);
    if (!selected) return undefined;
    const host = new ExecutionContextHost(args, method.instance.constructor as never, method.callback);
    host.setType(method.contextType);
    return await selected.func(error, host);
  }

  /** An instance of the wrapper's class for one DI context (request-scoped, or a transient of MCP's own). */
  loadPerContext(wrapper: InstanceWrapper, contextId: ContextId): Promise<object> {
    return this.injector.loadPerContext(wrapper.instance as object, wrapper.host!, wrapper.host!.providers, contextId, wrapper);
  }
}

/** Whose enhancers a context creator resolves: the scoped wrapper itself, or the module's entry provider of the class. */
function inquirerOf(wrapper: InstanceWrapper, instance: object, classRef: Function, contextId: ContextId | undefined): string | undefined {
  if (contextId) return wrapper.id;
  return wrapper.host?.entryProviders?.find((item) => item.token === classRef || item.instance === instance)?.id;
}

function hasEntries(value: unknown): boolean {
  return Array.isArray(value) && value.length > 0;
}

/**
 * What `ExternalContextCreator.create()` does for a method with no enhancer, without its per-call
 * closures: a method without MCP parameters gets the invocation itself; otherwise the call's
 * preparation runs (once, as the first parameter's extraction would start it), then each parameter is
 * read into an array of `undefined`s as long as the highest index. An Observable result gives its last
 * value. Nothing is awaited that does not wait: the method's own value comes back as it is (the invoker
 * awaits it once), and a synchronous throw is the invoker's to catch, as a rejection would be.
 */
function directHandler(instance: object, callback: Method, parameters: McpParameter[]): EnhancedMethod['handler'] {
  // The invoker passes the invocation alone (`args` of a route style never take this path).
  if (parameters.length === 0) return (invocation) => settle(callback.call(instance, invocation));
  const length = Math.max(...parameters.map((parameter) => parameter.index)) + 1;
  const call = (invocation: McpInvocation) => {
    const args: unknown[] = new Array(length);
    for (let i = 0; i < length; i++) args[i] = undefined;
    for (const parameter of parameters) args[parameter.index] = mcpParamValue(parameter.type, parameter.data, invocation);
    return settle(callback.apply(instance, args));
  };
  return (invocation) => andThen(prepareNow(invocation as McpInvocation), () => call(invocation as McpInvocation));
}

/** The method's value, or the promise of it (awaited by the invoker); an Observable, also one a promise gives, gives its last value. */
function settle(result: unknown): unknown {
  return isThenable(result) ? Promise.resolve(result).then(lastValueOf) : lastValueOf(result);
}

function lastValueOf(value: unknown): unknown {
  return isObservable(value) ? lastValueFrom(value) : value;
}
