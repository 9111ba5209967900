import { Inject, Injectable } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import type { McpCall } from '../context/mcp-call.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { InvalidParamsError, MethodNotFoundError } from '../protocol/mcp.error.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { McpSkills, type SkillCatalog } from '../skills/index.js';
import { listResult } from './pagination.js';
import { RpcMethod } from './rpc-method.decorator.js';

/**
 * `skills/list`, `skills/get` and `resources/directory/read` of the skills extension (SEP-2640).
 * A server that publishes no skills does not declare the extension, and these are -32601 there
 * (as is the directory read when `skills.directoryRead` is off). The files themselves are read with
 * the ordinary `resources/read`. Served to 2025 sessions too, where `initialize` declares the
 * extension; their results then go without the 2026-07-28 caching fields. @internal
 */
@Injectable()
export class SkillsMethods {
  constructor(
    private readonly skills: McpSkills,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  /** One skill per entry, so an entry's resources are never split across pages. */
  @RpcMethod('skills/list', { era: 'both' })
  list(call: McpCall, params: JsonObject): Result {
    return listResult('skills', this.catalog(call).skills, params.cursor, this.settings);
  }

  @RpcMethod('skills/get', { era: 'both' })
  get(call: McpCall, params: JsonObject): Result {
    const uri = requireUri(params, 'skills/get');
    const skill = this.catalog(call).skill(uri);
    if (!skill) throw new InvalidParamsError('Skill not found', { uri });
    return { resultType: 'complete', skill, ttlMs: this.settings.cache.ttlMs, cacheScope: this.settings.cache.cacheScope };
  }

  @RpcMethod('resources/directory/read', { era: 'both' })
  readDirectory(call: McpCall, params: JsonObject): Result {
    if (!this.settings.skills.directoryRead) throw new MethodNotFoundError(call.request.method);
    const uri = requireUri(params, 'resources/directory/read');
    const children = this.catalog(call).directory(uri);
    if (!children) throw new InvalidParamsError('Not a directory resource', { uri });
    return listResult('resources', children, params.cursor, this.settings);
  }

  private catalog(call: McpCall): SkillCatalog {
    const catalog = this.skills.catalog;
    if (!catalog) throw new MethodNotFoundError(call.request.method);
    return catalog;
  }
}

function requireUri(params: JsonObject, method: string): string {
  if (typeof params.uri !== 'string') throw new InvalidParamsError(`${method} needs a string "uri"`);
  return params.uri;
}
