import type { Provider } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_MODERN_ERA, MCP_SETTINGS } from '../mcp.constants.js';
import { LegacyLifecycle } from './initialize.js';
import { McpEras } from './mcp-eras.js';
import { ModernEra } from './modern.era.js';
import { LegacySessionFeeds } from './session-feeds.js';
import { legacySessionCodecProvider, LegacySessions } from './sessions.js';

export { McpEras } from './mcp-eras.js';
export type { EraClues, EraVerdict } from './classify.js';
export { ClientAnswerError, ClientAnswerTimeoutError } from './client-requests.js';
export type { McpSession } from './session.js';
export type { PipeEra } from './pipe-era.js';
export type { Draining, PostedAnswer, StreamAnswer } from './era-answer.js';
export * from './legacy-wire.js';

/** The era room's providers, for the module to register. */
export const ERA_PROVIDERS: Provider[] = [
  legacySessionCodecProvider,
  LegacySessions,
  LegacySessionFeeds,
  LegacyLifecycle,
  McpEras,
  { provide: MCP_MODERN_ERA, inject: [MCP_SETTINGS], useFactory: (settings: McpSettings) => new ModernEra(settings) },
];
