import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InvalidParamsError, McpCustomMethods, McpTool, ToolContext, type McpToolContext } from 'nest-mcp';

/** The MCP log levels, least severe first (RFC 5424 names). */
const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;
type Level = (typeof LEVELS)[number];

const isLevel = (value: unknown): value is Level => typeof value === 'string' && (LEVELS as readonly string[]).includes(value);

/**
 * MCP logging, for the suite's 2025-11-25 scenarios only (logging-set-level, tools-call-with-logging).
 * nest-mcp offers no logging helper (the feature is deprecated); this fixture builds it from the
 * low-level primitives: `McpCustomMethods` serves `logging/setLevel` to 2025 sessions and advertises
 * `logging`, and `sendNotification()` puts `notifications/message` on the call's own stream. The
 * level is per session (2025) or per request (`_meta` logLevel, 2026-07-28; none means no logging).
 */
@Injectable()
export class ConformanceLogging implements OnModuleInit {
  /** The level each 2025 session set; a session that set none gets every message (as the v1 SDK does). */
  private readonly sessionLevels = new Map<string, Level>();

  constructor(private readonly customMethods: McpCustomMethods) {}

  onModuleInit(): void {
    this.customMethods.register(
      'logging/setLevel',
      (params, request) => {
        if (!isLevel(params.level)) throw new InvalidParamsError(`"level" must be one of ${LEVELS.join(', ')}`);
        if (request.sessionId !== undefined) this.sessionLevels.set(request.sessionId, params.level);
        return {};
      },
      { era: 'legacy', capabilities: { logging: {} } },
    );
  }

  @McpTool({ name: 'test_tool_with_logging', description: 'Tests that a tool can send log messages during execution' })
  async toolWithLogging(@ToolContext() ctx: McpToolContext): Promise<string> {
    for (const step of ['started', 'working', 'finished']) {
      this.log(ctx, 'info', `test_tool_with_logging ${step}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return 'Logging tool finished.';
  }

  private log(ctx: McpToolContext, level: Level, data: string): void {
    const requested = ctx.sessionId !== undefined ? this.sessionLevels.get(ctx.sessionId) ?? 'debug' : ctx.meta['io.modelcontextprotocol/logLevel'];
    if (!isLevel(requested) || LEVELS.indexOf(level) < LEVELS.indexOf(requested)) return;
    ctx.sendNotification('notifications/message', { level, logger: 'conformance', data });
  }
}
