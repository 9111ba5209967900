export { McpEras } from './mcp-eras.js';
export type { EraClues, EraVerdict } from './classify.js';
export { ClientAnswerError, ClientAnswerTimeoutError } from './client-requests.js';
export { ModernEra } from './modern.era.js';
export type { LegacySession } from './session.js';
export { legacySessionCodecProvider, LegacySessions } from './sessions.js';
export { LegacySessionFeeds } from './session-feeds.js';
export { LegacyLifecycle } from './initialize.js';
