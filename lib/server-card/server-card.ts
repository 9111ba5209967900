import type { McpSettings } from '../config/mcp-settings.js';
import type { ServedCardSettings } from '../config/server-card-settings.js';
import type { McpProtocolPosture } from '../interfaces/mcp-module-options.interface.js';
import { LEGACY_PROTOCOL_VERSIONS, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import type { Icon } from '../protocol/wire.types.js';

/** The one `$schema` a v1 Server Card may name. */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** What a client asks for in `Accept` and the card is answered as. */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';

/**
 * A Server Card (the experimental extension tracking SEP-2127): who the server is and how to reach it,
 * read before connecting. It never lists tools, prompts or resources, nor capabilities or extensions:
 * those depend on the client and its identity and stay with the live protocol (`server/discover`).
 * @publicApi
 */
export interface McpServerCard {
  $schema: typeof SERVER_CARD_SCHEMA;
  name: string;
  version: string;
  description: string;
  title?: string;
  websiteUrl?: string;
  repository?: ServedCardSettings['repository'];
  icons?: readonly Icon[];
  remotes?: McpServerCardRemote[];
}

/** How to connect to the endpoint. @publicApi */
export interface McpServerCardRemote {
  type: 'streamable-http';
  url: string;
  supportedProtocolVersions: string[];
  /** With auth: the `Authorization` header every request needs. */
  headers?: Array<{ name: string; description: string; isRequired: boolean; isSecret: boolean }>;
}

/** The card's path below the endpoint: `/mcp` → `/mcp/server-card`. */
export function serverCardPath(endpoint: string): string {
  return `${endpoint === '/' ? '' : endpoint.replace(/\/$/, '')}/server-card`;
}

/** The card's URL beside the endpoint's URL. */
export function serverCardUrl(endpointUrl: string): string {
  return `${endpointUrl.replace(/\/$/, '')}/server-card`;
}

/** What `Host` may hold to be put into a URL: a name or an address, and a port. */
const HOST = /^(?:\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/**
 * The endpoint's public URL: as set (`serverCard.url`), else the auth resource (the same URL, by its
 * definition), else from the request: its scheme and `Host`, with the endpoint's path. Undefined for
 * a `Host` that is not a host.
 */
export function endpointUrlOf(settings: McpSettings, card: ServedCardSettings, request: { host: string | undefined; secure: boolean }): string | undefined {
  const configured = card.url ?? settings.auth?.resourceMetadata.resource;
  if (configured !== undefined) return configured;
  if (request.host === undefined || !HOST.test(request.host)) return undefined;
  return `${request.secure ? 'https' : 'http'}://${request.host.toLowerCase()}${settings.endpoint}`;
}

/** The revisions the endpoint serves: both eras, 2026-07-28 alone, or the 2025 ones alone. */
export function servedProtocolVersions(protocol: McpProtocolPosture): string[] {
  if (protocol === 'modern') return [...SUPPORTED_PROTOCOL_VERSIONS];
  if (protocol === 'legacy') return [...LEGACY_PROTOCOL_VERSIONS];
  return [...SUPPORTED_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];
}

/**
 * The card of a server: its name, version and title are `serverInfo`'s and its versions those the
 * endpoint serves, so it says what a client then sees. `metadataUrl`: with auth, where the client
 * learns how to get a token (the RFC 9728 metadata); the card itself says only that one is needed.
 */
export function buildServerCard(settings: McpSettings, card: ServedCardSettings, endpointUrl: string | undefined, metadataUrl?: string): McpServerCard {
  const { serverInfo } = settings;
  return {
    $schema: SERVER_CARD_SCHEMA,
    name: card.name,
    version: serverInfo.version,
    description: card.description,
    ...(serverInfo.title !== undefined && { title: serverInfo.title }),
    ...(card.websiteUrl !== undefined && { websiteUrl: card.websiteUrl }),
    ...(card.repository && { repository: card.repository }),
    ...(card.icons && { icons: card.icons }),
    ...(endpointUrl !== undefined && {
      remotes: [
        {
          type: 'streamable-http',
          url: endpointUrl,
          supportedProtocolVersions: servedProtocolVersions(settings.protocol),
          ...(metadataUrl !== undefined && {
            headers: [
              {
                name: 'Authorization',
                description: `OAuth 2.1 bearer token (Bearer <token>) from an authorization server named in ${metadataUrl}`,
                isRequired: true,
                isSecret: true,
              },
            ],
          }),
        },
      ],
    }),
  };
}
