import { Inject, Injectable } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { SUPPORTED_PROTOCOL_VERSIONS, TASKS_EXTENSION } from '../protocol/protocol.constants.js';
import type { Result, ServerCapabilities } from '../protocol/wire.types.js';
import { McpCustomMethods } from '../registry/custom-methods.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { RpcMethod } from './rpc-method.decorator.js';

/** `server/discover`: versions, capabilities, instructions and caching hints. @internal */
@Injectable()
export class DiscoverMethods {
  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: McpRegistry,
    private readonly customMethods: McpCustomMethods,
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

  /** List-changed and subscribe are real (see subscriptions/listen); completions and tasks only when there are some. */
  private capabilities(): ServerCapabilities {
    return {
      tools: { listChanged: true },
      prompts: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      ...(this.registry.hasCompletions ? { completions: {} } : {}),
      // Only a server that can create tasks advertises the extension (and never the legacy `tasks`).
      ...(this.registry.hasTaskTools ? { extensions: { [TASKS_EXTENSION]: {} } } : {}),
    };
  }
}
