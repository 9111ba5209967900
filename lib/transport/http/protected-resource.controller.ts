import { Controller, Get, Inject, Res, type Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
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

    /** `servesRoot`: the application's first endpoint alone serves the bare well-known path (Fastify refuses a second route for it; Express would let the first win). */
    static bindEndpoint(endpoint: string, servesRoot: boolean): void {
      const suffix = endpoint === '/' ? '' : endpoint;
      Reflect.defineMetadata(PATH_METADATA, `${WELL_KNOWN_PROTECTED_RESOURCE}${suffix}`, McpProtectedResourceController.prototype.forEndpoint);
      // A method without a path is no route to Nest. (Endpoint `/`: the two paths are one.)
      if (!servesRoot || suffix === '') Reflect.deleteMetadata(PATH_METADATA, McpProtectedResourceController.prototype.root);
    }

    @Get(WELL_KNOWN_PROTECTED_RESOURCE)
    root(@Res() res: unknown): void {
      this.write(res);
    }

    @Get(`${WELL_KNOWN_PROTECTED_RESOURCE}/mcp`)
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
  return McpProtectedResourceController;
}
