import { Inject, Injectable } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { APP_MIME_TYPE, SKILLS_EXTENSION, SUPPORTED_PROTOCOL_VERSIONS, TASKS_EXTENSION, UI_EXTENSION } from '../protocol/protocol.constants.js';
import type { JsonObject, Result, ServerCapabilities } from '../protocol/wire.types.js';
import { McpCustomMethods } from '../registry/custom-methods.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { McpSkills } from '../skills/index.js';
import { RpcMethod } from './rpc-method.decorator.js';

/** `server/discover`: versions, capabilities, instructions and caching hints. @internal */
@Injectable()
export class DiscoverMethods {
  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: McpRegistry,
    private readonly customMethods: McpCustomMethods,
    private readonly skills: McpSkills,
  ) {}

  @RpcMethod('server/discover')
  discover(): Result {
    return {
      resultType: 'complete',
      supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
      capabilities: { ...this.customMethods.capabilities('modern'), ...this.capabilities() },
      ...(this.settings.instructions ? { instructions: this.settings.instructions } : {}),
      ttlMs: this.settings.cache.ttlMs,
      cacheScope: this.settings.cache.cacheScope,
    };
  }

  /** List-changed and subscribe are real (see subscriptions/listen); completions and extensions only when there are some. */
  private capabilities(): ServerCapabilities {
    const extensions = this.extensions();
    return {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      ...(this.registry.hasCompletions ? { completions: {} } : {}),
      ...(Object.keys(extensions).length > 0 ? { extensions } : {}),
    };
  }

  /** Each extension only when it is in use: its settings sit directly under its key. */
  private extensions(): Record<string, JsonObject> {
    return {
      // Only a server that can create tasks advertises the extension (and never the legacy `tasks`).
      ...(this.registry.hasTaskTools ? { [TASKS_EXTENSION]: {} } : {}),
      // MCP Apps: the MIME type the server's app resources use (hosts declare the same key with theirs).
      ...(this.registry.hasApps ? { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } : {}),
      ...(this.skills.catalog ? { [SKILLS_EXTENSION]: this.settings.skills.directoryRead ? { directoryRead: true } : {} } : {}),
    };
  }
}
