import type { McpServerCardOptions } from '../interfaces/mcp-module-options.interface.js';
import type { Icon, Implementation } from '../protocol/wire.types.js';
import type { SettingSources } from './setting-sources.js';

/**
 * The Server Card as the settings hold it: checked against the card's rules at start-up, so that a
 * card the module serves is always a valid one (server-card/ builds it from these and the module).
 * @internal
 */
export type ServerCardSettings = ServedCardSettings | { served: false; /** On by default but not served: what it lacks, for the start-up log. */ lacking: readonly string[] };

/** A card that is served at `<endpoint>/server-card`. @internal */
export interface ServedCardSettings {
  served: true;
  /** `<namespace>/<serverInfo.name>`, or `serverInfo.name` when it has that form already. */
  name: string;
  description: string;
  /** The endpoint's public URL, when set (else the card finds it per request). */
  url?: string;
  websiteUrl?: string;
  icons?: readonly Icon[];
  repository?: McpServerCardOptions['repository'];
  /** Whether `/.well-known/ai-catalog.json` lists the card. */
  aiCatalog: boolean;
}

/** A Server Card's name: a reverse-DNS namespace, one slash, a name (the extension's schema). */
const CARD_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
const NAMESPACE = /^[a-zA-Z0-9.-]+$/;
const NAME_PART = /^[a-zA-Z0-9._-]+$/;
/** The schema's bounds on the card's fields. */
const LIMITS = { name: 200, description: 100, title: 100, version: 255 } as const;

const LACKING_NAME = 'a namespace (mocapi.server-card.namespace, e.g. com.example) or a reverse-DNS mocapi.server.name (com.example/weather)';
const LACKING_DESCRIPTION = 'a description (mocapi.server-card.description)';

/**
 * `mocapi.server-card.*`. The card is on by default and served once it can be a valid card (a
 * description and a reverse-DNS name); switched on explicitly, or listed in the AI Catalog, it must
 * be one, or start-up stops and says what is missing.
 */
export function serverCardSettings(option: McpServerCardOptions | undefined, setting: SettingSources, serverInfo: Implementation): ServerCardSettings {
  const enabled = setting.value('mocapi.server-card.enabled');
  const aiCatalog = setting.value('mocapi.server-card.ai-catalog') ?? false;
  if (enabled === false) {
    if (aiCatalog) throw new Error('mocapi.server-card.ai-catalog lists the Server Card, which mocapi.server-card.enabled turns off');
    return { served: false, lacking: [] };
  }
  const name = cardName(serverInfo.name, setting.value('mocapi.server-card.namespace'));
  const description = setting.value('mocapi.server-card.description');
  if (name === undefined || description === undefined) {
    const lacking = [...(name === undefined ? [LACKING_NAME] : []), ...(description === undefined ? [LACKING_DESCRIPTION] : [])];
    if (enabled || aiCatalog) {
      const asked = enabled ? 'mocapi.server-card.enabled is true' : 'mocapi.server-card.ai-catalog lists the Server Card';
      throw new Error(`${asked}, but the card needs ${lacking.join(' and ')}`);
    }
    return { served: false, lacking };
  }
  checkLength('mocapi.server-card.description', description, 1, LIMITS.description);
  if (serverInfo.title !== undefined) checkLength('mocapi.server.title', serverInfo.title, 1, LIMITS.title);
  checkLength('mocapi.server.version', serverInfo.version, 0, LIMITS.version);
  const url = setting.value('mocapi.server-card.url');
  if (url !== undefined && !/^https?:\/\/\S+$/.test(url)) throw new Error(`mocapi.server-card.url must be the endpoint's absolute http(s) URL; got "${url}"`);
  const websiteUrl = setting.value('mocapi.server-card.website-url');
  checkUrl('mocapi.server-card.website-url', websiteUrl);
  for (const icon of option?.icons ?? []) checkUrl('McpModule option serverCard.icons[].src', icon.src);
  const repository = option?.repository;
  if (repository) {
    checkUrl('McpModule option serverCard.repository.url', repository.url);
    if (!repository.source) throw new Error('McpModule option serverCard.repository.source must name the host of the repository (e.g. "github")');
  }
  return {
    served: true,
    name,
    description,
    aiCatalog,
    ...(url !== undefined && { url }),
    ...(websiteUrl !== undefined && { websiteUrl }),
    ...(option?.icons && { icons: option.icons }),
    ...(repository && { repository }),
  };
}

/** The card's name from the server's: as it is when reverse-DNS already, else under `namespace`; undefined without either. */
function cardName(serverName: string, namespace: string | undefined): string | undefined {
  if (serverName.includes('/')) {
    if (namespace !== undefined) throw new Error(`mocapi.server-card.namespace is set, but mocapi.server.name ("${serverName}") has a namespace already`);
    if (!CARD_NAME.test(serverName)) throw new Error(`mocapi.server.name must be "namespace/name" (letters, digits, ".", "-", "_") for the Server Card; got "${serverName}"`);
    return checkLength('mocapi.server.name', serverName, 3, LIMITS.name);
  }
  if (namespace === undefined) return undefined;
  if (!NAMESPACE.test(namespace)) throw new Error(`mocapi.server-card.namespace must be a reverse-DNS namespace (letters, digits, ".", "-"), e.g. com.example; got "${namespace}"`);
  if (!NAME_PART.test(serverName)) throw new Error(`mocapi.server.name must be letters, digits, ".", "-" or "_" to name the Server Card; got "${serverName}"`);
  return checkLength('mocapi.server-card.namespace', `${namespace}/${serverName}`, 3, LIMITS.name);
}

function checkLength(key: string, value: string, min: number, max: number): string {
  if (value.length < min || value.length > max) throw new Error(`${key} must be ${min} to ${max} characters for the Server Card; got ${value.length}`);
  return value;
}

function checkUrl(key: string, value: string | undefined): void {
  if (value !== undefined && !URL.canParse(value)) throw new Error(`${key} must be an absolute URL; got "${value}"`);
}
