import { Controller, Get, Inject, Res, type Type } from '@nestjs/common';
import { McpAuthService, WELL_KNOWN_PROTECTED_RESOURCE } from '../../auth/mcp-auth.service.js';
import { sendJson } from './http-exchange.js';

/**
 * Makes the controller serving the OAuth 2.0 Protected Resource Metadata (RFC 9728) at
 * `/.well-known/oauth-protected-resource` and, once `bindPath()` ran with the endpoint,
 * `/.well-known/oauth-protected-resource<endpoint>`. Both answer 404 when auth is not configured.
 * @internal
 */
export function createProtectedResourceController(): Type & { bindEndpoint(endpoint: string, servesRoot: boolean): void } {
  @Controller()
  class McpProtectedResourceController {
    constructor(@Inject(McpAuthService) private readonly auth: McpAuthService) {}

    /**
     * Makes the routes (`@Get()` applied here, as the paths are known only now). `servesRoot`: the
     * application's first endpoint alone serves the bare well-known path (Fastify refuses a second
     * route for it; Express would let the first win). Endpoint `/`: the two paths are one.
     */
    static bindEndpoint(endpoint: string, servesRoot: boolean): void {
      const suffix = endpoint === '/' ? '' : endpoint;
      route('forEndpoint', `${WELL_KNOWN_PROTECTED_RESOURCE}${suffix}`);
      if (servesRoot && suffix !== '') route('root', WELL_KNOWN_PROTECTED_RESOURCE);
    }

    root(@Res() res: unknown): void {
      this.write(res);
    }

    forEndpoint(@Res() res: unknown): void {
      this.write(res);
    }

    private write(res: unknown): void {
      const body = this.auth.enabled
        ? this.auth.metadata()
        : { error: 'not_found', error_description: 'This MCP server does not use OAuth authorization' };
      // Browser-based MCP clients fetch the metadata cross-origin.
      sendJson(res, this.auth.enabled ? 200 : 404, body, { 'Access-Control-Allow-Origin': '*' });
    }
  }
  const route = (method: 'root' | 'forEndpoint', path: string) => {
    const prototype = McpProtectedResourceController.prototype;
    Get(path)(prototype, method, Object.getOwnPropertyDescriptor(prototype, method)!);
  };
  return McpProtectedResourceController;
}
