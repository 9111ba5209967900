import { Inject, Injectable } from '@nestjs/common';
import { McpAuthService } from '../auth/mcp-auth.service.js';
import type { McpSettings } from '../config/mcp-settings.js';
import type { ServerCardSettings } from '../config/server-card-settings.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { catalogIdentifier, type McpAiCatalog, type McpAiCatalogEntry } from './ai-catalog.js';
import { buildServerCard, endpointUrlOf, SERVER_CARD_MEDIA_TYPE, serverCardUrl, type McpServerCard } from './server-card.js';

/** What a card's URL may be found from when it is not configured: the request's `Host` and whether it came over TLS. */
export interface CardRequest {
  host: string | undefined;
  secure: boolean;
}

/**
 * The Server Card of one endpoint, and its entry in the AI Catalog, built from the module's state
 * (settings, serverInfo, the served eras, auth) whenever they are asked for.
 * @internal
 */
@Injectable()
export class McpServerCards {
  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly auth: McpAuthService,
  ) {}

  /** The card as the settings have it: served, or what it lacks. */
  get cardSettings(): ServerCardSettings {
    return this.settings.serverCard;
  }

  /** The card, or undefined when the endpoint serves none. */
  card(request: CardRequest): McpServerCard | undefined {
    const card = this.settings.serverCard;
    if (!card.served) return undefined;
    return buildServerCard(this.settings, card, endpointUrlOf(this.settings, card, request), this.auth.enabled ? this.auth.metadataUrl : undefined);
  }

  /** The card's entry in the AI Catalog, when it is listed and its URL is known. */
  catalogEntry(request: CardRequest): McpAiCatalogEntry | undefined {
    const card = this.settings.serverCard;
    if (!card.served || !card.aiCatalog) return undefined;
    const endpointUrl = endpointUrlOf(this.settings, card, request);
    if (endpointUrl === undefined) return undefined;
    return { identifier: catalogIdentifier(card.name), type: SERVER_CARD_MEDIA_TYPE, url: serverCardUrl(endpointUrl) };
  }
}

/**
 * The AI Catalog of one application: it speaks for the host, so one route serves it, listing the card
 * of every endpoint of the application that asks to be listed.
 * @internal
 */
export class SiteCatalog {
  private readonly listed: McpServerCards[] = [];

  /** Lists an endpoint's card; true for the first, whose module then serves the catalog's route. */
  list(cards: McpServerCards): boolean {
    this.listed.push(cards);
    return this.listed.length === 1;
  }

  document(request: CardRequest): McpAiCatalog {
    return { specVersion: '1.0', entries: this.listed.flatMap((cards) => cards.catalogEntry(request) ?? []) };
  }
}
