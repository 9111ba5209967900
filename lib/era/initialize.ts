import { Inject, Injectable } from '@nestjs/common';
import type { McpSettings } from '../config/mcp-settings.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import { InvalidParamsError, isMcpError, type McpError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { ClientCapabilities, Implementation, JsonObject, JsonRpcRequest, JsonRpcResponse } from '../protocol/wire.types.js';
import { McpCustomMethods } from '../registry/custom-methods.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import { servedCapabilities } from '../methods/served-capabilities.js';
import { McpSkills } from '../skills/index.js';
import { definedIn2025 } from './legacy-extensions.js';
import type { McpSession } from './session.js';
import { LegacySessions } from './sessions.js';
import { asLegacyWire } from './legacy-render.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../protocol/protocol.constants.js';

/** The answer to `initialize`: the response, its HTTP status, and the new session's id on success. */
export interface InitializeOutcome {
  message: JsonRpcResponse;
  httpStatus: number;
  sessionId?: string;
  /** The session opened (stdio keeps it for the pipe; HTTP sends its id). */
  session?: McpSession;
}

/**
 * `initialize` of the 2025 revisions (lifecycle §Initialization): checks the params, negotiates the
 * version (the client's when it is one of LEGACY_PROTOCOL_VERSIONS, else the newest), and opens a
 * sealed session holding what was negotiated. `InitializeResult` is where a 2025 client learns the
 * server's identity, capabilities and instructions.
 * @internal
 */
@Injectable()
export class LegacyLifecycle {
  constructor(
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
    private readonly registry: McpRegistry,
    private readonly sessions: LegacySessions,
    private readonly customMethods: McpCustomMethods,
    private readonly skills: McpSkills,
  ) {}

  /** `principal`: who opens the session (auth on); the session is theirs alone. */
  initialize(request: JsonRpcRequest, principal: string | undefined): InitializeOutcome {
    try {
      const { protocolVersion, capabilities, clientInfo } = readParams(request.params);
      const negotiated = LEGACY_PROTOCOL_VERSIONS.includes(protocolVersion) ? protocolVersion : LEGACY_PROTOCOL_VERSIONS[0];
      const opened = this.sessions.issue({ protocolVersion: negotiated, clientCapabilities: capabilities, clientInfo, principal });
      if (!opened) throw invalid('the client capabilities and clientInfo are too large to hold in a session');
      const result: JsonObject = {
        protocolVersion: negotiated,
        capabilities: this.capabilities(),
        serverInfo: this.settings.serverInfo as unknown as JsonObject,
        ...(this.settings.instructions ? { instructions: this.settings.instructions } : {}),
      };
      return { message: { jsonrpc: '2.0', id: request.id, result: asLegacyWire(result) }, httpStatus: 200, sessionId: opened.sessionId, session: opened.session };
    } catch (error) {
      const mcpError = error as McpError;
      if (!isMcpError(mcpError)) throw error;
      return { message: { jsonrpc: '2.0', id: request.id, error: mcpError.toJsonRpc() }, httpStatus: mcpError.httpStatus };
    }
  }

  /**
   * What a 2025 session gets: the server's own capabilities, with the extensions 2025 defines (skills,
   * MCP Apps: SEP-2133 advertises them here, where 2025 clients read them), and what custom methods
   * add (`logging` only where one registers `logging/setLevel`).
   */
  private capabilities(): JsonObject {
    const own = servedCapabilities(this.registry, this.skills, this.settings, definedIn2025);
    return { ...this.customMethods.capabilities('legacy'), ...(own as JsonObject) };
  }
}

function invalid(detail: string): InvalidParamsError {
  return new InvalidParamsError(`Invalid initialize params: ${detail}`, undefined, 400);
}

function readParams(params: unknown): { protocolVersion: string; capabilities: ClientCapabilities; clientInfo: Implementation } {
  if (!isPlainObject(params)) throw invalid('params are required');
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== 'string' || protocolVersion === '') throw invalid('"protocolVersion" must be a non-empty string');
  if (!isPlainObject(capabilities)) throw invalid('"capabilities" must be an object');
  if (!isPlainObject(clientInfo) || typeof clientInfo.name !== 'string' || typeof clientInfo.version !== 'string') {
    throw invalid('"clientInfo" must be an object with a name and a version');
  }
  const info: Implementation = { name: clientInfo.name, version: clientInfo.version, ...(typeof clientInfo.title === 'string' ? { title: clientInfo.title } : {}) };
  return { protocolVersion, capabilities: capabilities as ClientCapabilities, clientInfo: info };
}
