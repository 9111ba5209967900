import { Inject, Injectable } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { McpCustomMethods } from '../registry/custom-methods.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { McpSkills } from '../skills/index.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { servedCapabilities } from './served-capabilities.js';

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
      capabilities: { ...this.customMethods.capabilities('modern'), ...(servedCapabilities(this.registry, this.skills, this.settings) as JsonObject) },
      ...(this.settings.instructions ? { instructions: this.settings.instructions } : {}),
      ttlMs: this.settings.cache.ttlMs,
      cacheScope: this.settings.cache.cacheScope,
    };
  }
}
