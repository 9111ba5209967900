import {
  Injectable,
  Logger,
  Module,
  UseGuards,
  UseInterceptors,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { tap, type Observable } from 'rxjs';
import { McpArg, McpExecutionContext, McpTool, type McpContextType } from 'nest-mcp';

/**
 * A demo role check: lets a call through when the HTTP request says `X-Demo-Role: admin`. (A real
 * server would configure `McpModule.forRoot({ auth })` and use `@McpScopes()` instead.)
 */
@Injectable()
export class DemoAdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType<McpContextType>() !== 'mcp') return true;
    const role = McpExecutionContext.create(context).getHttpRequest<IncomingMessage>()?.headers['x-demo-role'];
    return role === 'admin';
  }
}

/** Logs each MCP call with its kind, name and duration; the result passes through unchanged. */
@Injectable()
export class CallTimingInterceptor implements NestInterceptor {
  private readonly logger = new Logger('McpCalls');

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const mcp = McpExecutionContext.create(context);
    const started = performance.now();
    return next.handle().pipe(
      tap(() => this.logger.log(`${mcp.getKind()} "${mcp.getName()}" took ${(performance.now() - started).toFixed(1)} ms (request ${String(mcp.getRequest()?.id)})`)),
    );
  }
}

/** Admin-only tools: hidden from `tools/list` unless the guard lets the caller in. */
@Injectable()
@UseGuards(DemoAdminGuard)
@UseInterceptors(CallTimingInterceptor)
export class SecureTools {
  private readonly flags = new Map<string, boolean>([['new-billing', false]]);

  @McpTool({
    name: 'set-feature-flag',
    description: 'Turns a feature flag on or off (admins only)',
    annotations: { destructiveHint: false, idempotentHint: true },
    hideWhenDenied: true,
  })
  setFeatureFlag(@McpArg('flag', { description: 'Flag name' }) flag: string, @McpArg('enabled', { description: 'New state' }) enabled: boolean) {
    this.flags.set(flag, enabled);
    return { flags: Object.fromEntries(this.flags) };
  }
}

/** The guarded tool, its guard and the interceptor (served over HTTP by `main.ts`). */
@Module({ providers: [SecureTools] })
export class SecureDemoModule {}
