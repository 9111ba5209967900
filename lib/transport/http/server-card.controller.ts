import { Controller, Get, Inject, Logger, Optional, Options, Req, Res, type OnApplicationBootstrap, type Type } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { TLSSocket } from 'node:tls';
import {
  AI_CATALOG_MEDIA_TYPE,
  AI_CATALOG_PATH,
  isNotModified,
  McpServerCards,
  PUBLIC_DOCUMENT_HEADERS,
  publicDocument,
  SERVER_CARD_MEDIA_TYPE,
  serverCardPath,
  type CardRequest,
  type SiteCatalog,
} from '../../server-card/index.js';
import { nodeRequestOf, sendBody, sendText } from './http-exchange.js';
import type { HttpRequest } from './mcp-http.transport.js';
import { OriginPolicy } from './origin.policy.js';
import { headerValue } from './request-headers.js';

/**
 * Makes the controller of the Server Card at `<endpoint>/server-card`. Mounted always (options may
 * arrive async, after controllers are declared); a card that is off or not described answers 404.
 * The card is public: no token, any Origin (CORS `*`); the endpoint's `allowedHosts` still apply.
 * @internal
 */
export function createServerCardController(): Type & { bindEndpoint(endpoint: string): void } {
  @Controller()
  class McpServerCardController implements OnApplicationBootstrap {
    private static path = '';
    private readonly logger = new Logger('McpModule');

    constructor(
      @Inject(McpServerCards) private readonly cards: McpServerCards,
      @Inject(OriginPolicy) private readonly origins: OriginPolicy,
      @Optional() @Inject(HttpAdapterHost) private readonly adapterHost?: HttpAdapterHost,
    ) {}

    /** The controller's path, known only now: `@Controller()` applied again, with it. */
    static bindEndpoint(endpoint: string): void {
      McpServerCardController.path = serverCardPath(endpoint);
      Controller(McpServerCardController.path)(McpServerCardController);
    }

    /** Says where the card is, or what it lacks to be served (an application context, as on stdio, has no HTTP and no card). */
    onApplicationBootstrap(): void {
      if (!this.adapterHost?.httpAdapter) return;
      const card = this.cards.cardSettings;
      const path = McpServerCardController.path;
      if (card.served) this.logger.log(`Server Card at ${path}`);
      else if (card.lacking.length > 0) {
        this.logger.log(`Server Card not served at ${path}: it needs ${card.lacking.join(' and ')} (mocapi.server-card.enabled=false says none is wanted)`);
      }
    }

    @Get()
    card(@Req() request: unknown, @Res() res: unknown): void {
      const req = nodeRequestOf<HttpRequest>(request);
      if (!this.origins.isHostAllowed(headerValue(req.headers, 'host'))) return sendText(res, 403, 'Forbidden: Host not allowed', CORS);
      const card = this.cards.card(cardRequest(req));
      if (!card) return sendText(res, 404, 'Not Found', CORS);
      answer(req, res, card, SERVER_CARD_MEDIA_TYPE);
    }

    @Options()
    preflight(@Res() res: unknown): void {
      answerPreflight(res);
    }
  }
  return McpServerCardController;
}

/**
 * Makes the controller of the AI Catalog at `/.well-known/ai-catalog.json`. It has a route only in
 * the module of the application's first endpoint whose card is listed (`bindSite()`): the catalog
 * speaks for the whole host and lists every listed card of the application.
 * @internal
 */
export function createAiCatalogController(): Type & { bindSite(site: SiteCatalog): void } {
  @Controller()
  class McpAiCatalogController {
    private static site?: SiteCatalog;

    /** The routes (`@Get()`, `@Options()` applied here), for the module that serves the catalog. */
    static bindSite(site: SiteCatalog): void {
      McpAiCatalogController.site = site;
      const prototype = McpAiCatalogController.prototype;
      Get(AI_CATALOG_PATH)(prototype, 'catalog', Object.getOwnPropertyDescriptor(prototype, 'catalog')!);
      Options(AI_CATALOG_PATH)(prototype, 'preflight', Object.getOwnPropertyDescriptor(prototype, 'preflight')!);
    }

    catalog(@Req() request: unknown, @Res() res: unknown): void {
      const req = nodeRequestOf<HttpRequest>(request);
      answer(req, res, McpAiCatalogController.site!.document(cardRequest(req)), AI_CATALOG_MEDIA_TYPE);
    }

    preflight(@Res() res: unknown): void {
      answerPreflight(res);
    }
  }
  return McpAiCatalogController;
}

/** A refusal a browser client may read too. */
const CORS = { 'Access-Control-Allow-Origin': '*' };

function cardRequest(req: HttpRequest): CardRequest {
  return { host: headerValue(req.headers, 'host'), secure: (req.socket as Partial<TLSSocket>).encrypted === true };
}

/** A public JSON document: 200 with it and its ETag, or 304 when the client's copy is current. */
function answer(req: HttpRequest, res: unknown, value: unknown, mediaType: string): void {
  const document = publicDocument(value);
  const headers = { ...PUBLIC_DOCUMENT_HEADERS, ETag: document.etag };
  if (isNotModified(headerValue(req.headers, 'if-none-match'), document.etag)) return sendBody(res, 304, headers, '');
  // Bytes, not text: Fastify would add a charset to the media type of a string (JSON has none).
  const body = Buffer.from(document.body);
  sendBody(res, 200, { ...headers, 'Content-Type': mediaType, 'Content-Length': body.length }, body);
}

/** A browser's CORS preflight (the client sends `If-None-Match`, which is not a simple header). */
function answerPreflight(res: unknown): void {
  sendBody(res, 204, { ...PUBLIC_DOCUMENT_HEADERS, 'Access-Control-Max-Age': '86400' }, '');
}
