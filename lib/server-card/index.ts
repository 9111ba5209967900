/**
 * Server Cards (the experimental extension tracking SEP-2127): the document at `<endpoint>/server-card`
 * that describes the server before a client connects, and the opt-in AI Catalog that lists it.
 */
export { AI_CATALOG_MEDIA_TYPE, AI_CATALOG_PATH, catalogIdentifier, type McpAiCatalog, type McpAiCatalogEntry } from './ai-catalog.js';
export { isNotModified, PUBLIC_DOCUMENT_HEADERS, publicDocument, type PublicDocument } from './public-document.js';
export {
  buildServerCard,
  SERVER_CARD_MEDIA_TYPE,
  SERVER_CARD_SCHEMA,
  serverCardPath,
  servedProtocolVersions,
  type McpServerCard,
  type McpServerCardRemote,
} from './server-card.js';
export { McpServerCards, SiteCatalog, type CardRequest } from './server-cards.js';
