import {
  BadRequestException,
  Catch,
  Inject,
  Injectable,
  Module,
  Scope,
  UnauthorizedException,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type ArgumentsHost,
  type CallHandler,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { map, type Observable } from 'rxjs';
import {
  McpArg,
  McpComplete,
  McpError,
  McpExecutionContext,
  McpModule,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  text,
  ToolContext,
  type McpContextType,
  type McpToolContext,
} from '../../lib/index.js';

/** What enhancers saw, for the tests to inspect. */
export const seen = {
  guard: [] as Array<{ type: string; kind?: string; name?: string; probe: boolean; args: unknown; hasContext: boolean; hasHttp: boolean; method?: string }>,
  interceptor: [] as Array<{ name?: string; result: unknown }>,
  scopedGuardInstances: 0,
  scopedInterceptorCallers: [] as Array<string | undefined>,
  handlerRuns: [] as string[],
  /** Tools whose interceptor was entered, before the handler's parameters are read. */
  intercepted: [] as Array<string | undefined>,
  reset(): void {
    this.intercepted.length = 0;
    this.guard.length = 0;
    this.interceptor.length = 0;
    this.scopedGuardInstances = 0;
    this.scopedInterceptorCallers.length = 0;
    this.handlerRuns.length = 0;
  },
};

function header(request: IncomingMessage | undefined, name: string): string | undefined {
  const value = request?.headers?.[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Allows when the HTTP request carries `x-role: admin`; records what the MCP execution context offers. */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const mcp = McpExecutionContext.create(context);
    seen.guard.push({
      type: context.getType<McpContextType>(),
      kind: mcp.getKind(),
      name: mcp.getName(),
      probe: mcp.isProbe(),
      args: mcp.getArguments(),
      hasContext: mcp.getContext() !== undefined,
      hasHttp: mcp.getHttpRequest() !== undefined,
      method: mcp.getRequest()?.method,
    });
    return header(mcp.getHttpRequest(), 'x-role') === 'admin';
  }
}

/** Throws UnauthorizedException without `x-user`. */
@Injectable()
export class UserGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (!header(McpExecutionContext.create(context).getHttpRequest(), 'x-user')) throw new UnauthorizedException('Who are you?');
    return true;
  }
}

/** The `_meta` key MetaRoleGuard reads. */
export const META_ROLE = 'example.com/role';

/** Allows when the call's `_meta` carries `example.com/role: admin`: a rule every transport can carry (stdio has no headers). */
@Injectable()
export class MetaRoleGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const meta = McpExecutionContext.create(context).getRequest()?.params?._meta as Record<string, unknown> | undefined;
    return meta?.[META_ROLE] === 'admin';
  }
}

/** A request-scoped guard: gets the HTTP request injected, allows `x-caller: friend`. */
@Injectable({ scope: Scope.REQUEST })
export class ScopedCallerGuard implements CanActivate {
  constructor(@Inject(REQUEST) private readonly request: IncomingMessage) {
    seen.scopedGuardInstances++;
  }
  canActivate(): boolean {
    return header(this.request, 'x-caller') === 'friend';
  }
}

/** A request-scoped interceptor: stamps the caller of its own request onto the result. */
@Injectable({ scope: Scope.REQUEST })
export class ScopedCallerInterceptor implements NestInterceptor {
  constructor(@Inject(REQUEST) private readonly request: IncomingMessage) {}
  intercept(_context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const caller = header(this.request, 'x-caller');
    seen.scopedInterceptorCallers.push(caller);
    return next.handle().pipe(map((value) => `${String(value)} (seen by ${caller})`));
  }
}

/** Sees the handler's raw return value and wraps it. */
@Injectable()
export class WrapInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const mcp = McpExecutionContext.create(context);
    return next.handle().pipe(
      map((result) => {
        seen.interceptor.push({ name: mcp.getName(), result });
        return { wrapped: result, tool: mcp.getName() };
      }),
    );
  }
}

/** Records each call it wraps, before anything else runs. */
@Injectable()
export class EntryInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    seen.intercepted.push(McpExecutionContext.create(context).getName());
    return next.handle();
  }
}

/** Upper-cases string arguments. */
export class UpperCasePipe implements PipeTransform {
  transform(value: unknown): unknown {
    return typeof value === 'string' ? value.toUpperCase() : value;
  }
}

export class OutOfStockError extends Error {
  constructor(readonly sku: string) {
    super(`SKU ${sku} is out of stock`);
  }
}

/** Maps a domain error to a tool error result (the filter's return value answers the call). */
@Catch(OutOfStockError)
export class OutOfStockFilter implements ExceptionFilter {
  catch(error: OutOfStockError, host: ArgumentsHost) {
    const mcp = McpExecutionContext.create(host);
    return { content: [text(`Sorry: ${error.sku} is sold out (${mcp.getName()})`)], isError: true };
  }
}

/** Turns any error into a JSON-RPC error by throwing an McpError. */
@Catch()
export class RethrowAsMcpFilter implements ExceptionFilter {
  catch(error: Error): never {
    throw new McpError(-31500, `Mapped: ${error.message}`);
  }
}

/** Catches but declines (returns nothing): the error goes on as if unfiltered. */
@Catch()
export class DecliningFilter implements ExceptionFilter {
  catch(): void {
    return undefined;
  }
}

@Injectable()
@UseGuards(AdminGuard)
export class AdminTools {
  @McpTool({ name: 'admin-visible', description: 'Guarded, listed for everyone' })
  visible() {
    seen.handlerRuns.push('admin-visible');
    return 'visible ran';
  }

  @McpTool({ name: 'admin-hidden', description: 'Guarded, hidden when denied', hideWhenDenied: true })
  hidden() {
    seen.handlerRuns.push('admin-hidden');
    return 'hidden ran';
  }

  @McpPrompt({ name: 'admin-prompt', description: 'A guarded prompt', hideWhenDenied: true })
  prompt() {
    seen.handlerRuns.push('admin-prompt');
    return 'secret prompt';
  }

  @McpResource({ uri: 'admin://report', name: 'report', description: 'A guarded resource' })
  report() {
    seen.handlerRuns.push('admin-report');
    return 'the report';
  }

  @McpResource({ uri: 'admin://hidden-report', name: 'hidden-report', description: 'A guarded resource, hidden when denied', hideWhenDenied: true })
  hiddenReport() {
    seen.handlerRuns.push('admin-hidden-report');
    return 'the hidden report';
  }

  @McpResourceTemplate({ uriTemplate: 'admin://hidden/{id}', name: 'hidden-item', description: 'A guarded template, hidden when denied', hideWhenDenied: true })
  hiddenItem(@McpArg('id') id: string) {
    seen.handlerRuns.push('admin-hidden-item');
    return `item ${id}`;
  }

  @McpTool({ name: 'admin-set', description: 'Guarded, with an argument' })
  set(@McpArg('level') level: number) {
    seen.handlerRuns.push('admin-set');
    return `level ${level}`;
  }
}

@Injectable()
export class EnhancedTools {
  @McpTool({ name: 'needs-user', description: 'Method guard throwing UnauthorizedException' })
  @UseGuards(UserGuard)
  needsUser() {
    seen.handlerRuns.push('needs-user');
    return 'hello user';
  }

  @McpTool({ name: 'meta-admin', description: "Method guard reading the call's _meta" })
  @UseGuards(MetaRoleGuard)
  metaAdmin() {
    seen.handlerRuns.push('meta-admin');
    return 'meta admin ran';
  }

  @McpTool({ name: 'wrapped', description: 'An interceptor wraps the result' })
  @UseInterceptors(WrapInterceptor)
  wrapped(@McpArg('n') n: number) {
    return { doubled: n * 2 };
  }

  @McpTool({ name: 'shout-pipe', description: 'A method pipe upper-cases arguments' })
  @UsePipes(UpperCasePipe)
  shout(@McpArg('word') word: string, @ToolContext() ctx: McpToolContext) {
    return `${word} from ${ctx.toolName}`;
  }

  @McpTool({ name: 'buy', description: 'A filter maps a domain error to a tool error' })
  @UseFilters(OutOfStockFilter)
  buy(@McpArg('sku') sku: string) {
    if (sku === 'boom') throw new Error('unfiltered failure');
    throw new OutOfStockError(sku);
  }

  @McpTool({ name: 'mapped', description: 'A filter maps any error to a JSON-RPC error' })
  @UseFilters(RethrowAsMcpFilter)
  mapped() {
    throw new Error('database down');
  }

  @McpTool({ name: 'declined', description: 'A filter that declines' })
  @UseFilters(DecliningFilter)
  declined() {
    throw new Error('nobody handled me');
  }

  @McpTool({ name: 'counted', description: 'An interceptor wraps the argument checks too' })
  @UseInterceptors(EntryInterceptor)
  counted(@McpArg('n') n: number) {
    return n;
  }

  @McpPrompt({ name: 'greet-caller', description: 'Greets someone; the name completes per caller' })
  greetCaller(@McpArg('name') name: string) {
    return `Hello, ${name}`;
  }

  @McpTool({ name: 'bad-request', description: 'Throws an HttpException' })
  badRequest() {
    throw new BadRequestException('That will not do');
  }
}

/** A request-scoped completion source: its REQUEST is the HTTP request of the completion/complete call. */
@Injectable({ scope: Scope.REQUEST })
export class CallerCompletions {
  constructor(@Inject(REQUEST) private readonly request: IncomingMessage) {}

  @McpComplete({ prompt: 'greet-caller', argument: 'name' })
  names(value: string) {
    return [`${header(this.request, 'x-caller') ?? 'nobody'}${value}`];
  }
}

/** Completes the hidden template's variable, unguarded itself: whether the template may be seen is what decides. */
@Injectable()
export class HiddenItemCompletions {
  @McpComplete({ resourceTemplate: 'admin://hidden/{id}', argument: 'id' })
  ids(value: string) {
    return ['a1', 'a2'].filter((id) => id.startsWith(value));
  }
}

/** Request-scoped guard and interceptor on a singleton provider's tools. */
@Injectable()
export class ScopedEnhancerTools {
  @McpTool({ name: 'friends-only', description: 'A request-scoped guard', hideWhenDenied: true })
  @UseGuards(ScopedCallerGuard)
  friendsOnly() {
    return 'hi friend';
  }

  @McpTool({ name: 'stamped', description: 'A request-scoped interceptor' })
  @UseInterceptors(ScopedCallerInterceptor)
  stamped() {
    return 'stamped';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'enhancers-fixture', version: '1.0.0' })],
  providers: [AdminTools, EnhancedTools, ScopedEnhancerTools, CallerCompletions, HiddenItemCompletions],
})
export class EnhancersFixtureModule {}
