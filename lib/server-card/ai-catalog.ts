import { SERVER_CARD_MEDIA_TYPE } from './server-card.js';

/** Where a host lists its AI artifacts for domain-level discovery, and the list's media type. */
export const AI_CATALOG_PATH = '/.well-known/ai-catalog.json';
export const AI_CATALOG_MEDIA_TYPE = 'application/ai-catalog+json';

/** One Server Card in an AI Catalog, by its URL. @publicApi */
export interface McpAiCatalogEntry {
  identifier: string;
  type: typeof SERVER_CARD_MEDIA_TYPE;
  url: string;
}

/** An AI Catalog: the host's list of artifacts, here its MCP servers' cards. @publicApi */
export interface McpAiCatalog {
  specVersion: '1.0';
  entries: McpAiCatalogEntry[];
}

/**
 * The catalog identifier of a card, `urn:air:{publisher}:mcp:{name}`: the publisher is the card's
 * reverse-DNS namespace as a domain (`com.example/weather` → `urn:air:example.com:mcp:weather`).
 */
export function catalogIdentifier(cardName: string): string {
  const [namespace, name] = cardName.split('/');
  return `urn:air:${namespace.split('.').reverse().join('.')}:mcp:${name}`;
}
