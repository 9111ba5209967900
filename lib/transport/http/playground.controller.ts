import { Controller, Get, Inject, Param, Req, Res, type Type } from '@nestjs/common';
import type { McpSettings } from '../../config/mcp-settings.js';
import { MCP_SETTINGS } from '../../mcp.constants.js';
import { playgroundAssets, playgroundPath } from '../../playground/index.js';
import { nodeRequestOf, sendBody, sendText } from './http-exchange.js';
import type { HttpRequest } from './mcp-http.transport.js';
import { OriginPolicy } from './origin.policy.js';
import { originRefusal } from './request-body.js';

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

    /** The controller's path, known only now: `@Controller()` applied again, with it. */
    static bindEndpoint(endpoint: string): void {
      Controller(playgroundPath(endpoint))(McpPlaygroundController);
    }

    @Get()
    page(@Req() request: unknown, @Res() res: unknown): void {
      const req = nodeRequestOf<HttpRequest>(request);
      // Relative links (`playground/playground.js`) resolve from `…/playground`, not from `…/playground/`.
      if ((req.url ?? '').split('?')[0].endsWith('/')) {
        if (!this.served(req, res)) return;
        return sendBody(res, 308, { Location: '../playground' }, '');
      }
      this.write(req, res, '');
    }

    @Get(':file')
    file(@Req() req: unknown, @Res() res: unknown, @Param('file') file: string): void {
      this.write(nodeRequestOf<HttpRequest>(req), res, file);
    }

    /** The playground is on and the request passes the endpoint's Origin and Host rules; else answers 404 / 403. */
    private served(req: HttpRequest, res: unknown): boolean {
      if (!this.settings.playground) {
        sendText(res, 404, 'Not Found');
        return false;
      }
      if (originRefusal(req, this.origins)) {
        sendText(res, 403, 'Forbidden: Origin or Host not allowed');
        return false;
      }
      return true;
    }

    private write(req: HttpRequest, res: unknown, name: string): void {
      if (!this.served(req, res)) return;
      const asset = playgroundAssets().get(name);
      if (!asset) return sendText(res, 404, 'Not Found');
      const csp = asset.csp(new URL(req.url ?? '', 'http://localhost').searchParams);
      sendBody(
        res,
        200,
        {
          'Content-Type': asset.contentType,
          'Content-Security-Policy': csp,
          'X-Content-Type-Options': 'nosniff',
          'Referrer-Policy': 'no-referrer',
          'Cache-Control': 'no-cache',
        },
        asset.body,
      );
    }
  }
  return McpPlaygroundController;
}
