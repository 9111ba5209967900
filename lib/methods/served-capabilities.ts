import type { McpSettings } from '../config/mcp-settings.js';
import { APP_MIME_TYPE, SKILLS_EXTENSION, TASKS_EXTENSION, UI_EXTENSION } from '../protocol/protocol.constants.js';
import type { JsonObject, ServerCapabilities } from '../protocol/wire.types.js';
import type { McpRegistry } from '../registry/mcp.registry.js';
import type { McpSkills } from '../skills/index.js';

/**
 * The server's own capabilities, as `server/discover` and a 2025 `initialize` result advertise them:
 * list-changed and subscribe are real in both eras (subscriptions/listen; a session's standalone
 * stream), completions only when there are some, and each extension only when it is in use, its
 * settings directly under its key (SEP-2133). `advertises` drops the extensions an era does not define.
 * @internal
 */
export function servedCapabilities(
  registry: McpRegistry,
  skills: McpSkills,
  settings: McpSettings,
  advertises: (extension: string) => boolean = () => true,
): ServerCapabilities {
  const extensions = Object.fromEntries(Object.entries(servedExtensions(registry, skills, settings)).filter(([key]) => advertises(key)));
  return {
    tools: { listChanged: true },
    prompts: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    ...(registry.hasCompletions ? { completions: {} } : {}),
    ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
  };
}

function servedExtensions(registry: McpRegistry, skills: McpSkills, settings: McpSettings): Record<string, JsonObject> {
  return {
    // Only a server that can create tasks advertises the extension (and never the legacy `tasks`).
    ...(registry.hasTaskTools ? { [TASKS_EXTENSION]: {} } : {}),
    // MCP Apps: the MIME type the server's app resources use (hosts declare the same key with theirs).
    ...(registry.hasApps ? { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } : {}),
    ...(skills.catalog ? { [SKILLS_EXTENSION]: settings.skills.directoryRead ? { directoryRead: true } : {} } : {}),
  };
}
