import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';

/**
 * A demo role check, written for REST and nothing else: lets a request through when it says
 * `X-Demo-Role: editor`. Called as a tool, the route's request carries the MCP request's headers,
 * so the same guard decides. (A real API would read `request.user` set by its auth.)
 */
@Injectable()
export class EditorRoleGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    return request.headers['x-demo-role'] === 'editor';
  }
}
