import { Controller, Get, Inject, Param, Req, Res, type Type } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import type { ServerResponse } from 'node:http';
import type { McpSettings } from '../../config/mcp-settings.js';
import { MCP_SETTINGS } from '../../mcp.constants.js';
import { playgroundAssets, playgroundPath } from '../../playground/index.js';
import type { HttpRequest } from './mcp-http.transport.js';
import { OriginPolicy } from './origin.policy.js';

/**
 * Makes the controller that serves the playground page at `<endpoint>/playground` and its files below
 * it. Mounted always (options may arrive async, after controllers are declared); when the playground
 * is off it answers 404 as if it were not there. The page needs no token: it is static, and the MCP
 * calls it makes carry the token the user types in.
 * @internal
 */
export function createPlaygroundController(): Type & { bindEndpoint(endpoint: string): void } {
  @Controller()
  class McpPlaygroundController {
    constructor(
      @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
      @Inject(OriginPolicy) private readonly origins: OriginPolicy,
    ) {}

    static bindEndpoint(endpoint: string): void {
      Reflect.defineMetadata(PATH_METADATA, playgroundPath(endpoint), McpPlaygroundController);
    }

    @Get()
    page(@Req() req: HttpRequest, @Res() res: ServerResponse): void {
      // Relative links (`playground/playground.js`) resolve from `…/playground`, not from `…/playground/`.
      if ((req.url ?? '').split('?')[0].endsWith('/')) {
        if (!this.served(req, res)) return;
        res.writeHead(308, { Location: '../playground' });
        res.end();
        return;
      }
      this.write(req, res, '');
    }

    @Get(':file')
    file(@Req() req: HttpRequest, @Res() res: ServerResponse, @Param('file') file: string): void {
      this.write(req, res, file);
    }

    /** The playground is on and the request passes the endpoint's Origin and Host rules; else answers 404 / 403. */
    private served(req: HttpRequest, res: ServerResponse): boolean {
      if (!this.settings.playground) {
        plain(res, 404, 'Not Found');
        return false;
      }
      if (!this.origins.isAllowed(req.headers.origin, req.headers.host)) {
        plain(res, 403, 'Forbidden: Origin or Host not allowed');
        return false;
      }
      return true;
    }

    private write(req: HttpRequest, res: ServerResponse, name: string): void {
      if (!this.served(req, res)) return;
      const asset = playgroundAssets().get(name);
      if (!asset) return plain(res, 404, 'Not Found');
      res.writeHead(200, {
        'Content-Type': asset.contentType,
        'Content-Length': asset.body.length,
        'Content-Security-Policy': asset.csp,
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
        'Cache-Control': 'no-cache',
      });
      res.end(asset.body);
    }
  }
  return McpPlaygroundController;
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'X-Content-Type-Options': 'nosniff' });
  res.end(text);
}
