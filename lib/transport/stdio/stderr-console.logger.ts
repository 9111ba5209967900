import { ConsoleLogger, type ConsoleLoggerOptions, type LogLevel } from '@nestjs/common';

/**
 * Nest's console logger, with every level written to stderr. On stdio, stdout carries the protocol
 * only ("The server MUST NOT write anything to its stdout that is not a valid MCP message"), so
 * `log`, `warn`, `debug` and `verbose`, which ConsoleLogger sends to stdout, must go elsewhere.
 * @publicApi
 */
export class StderrConsoleLogger extends ConsoleLogger {
  constructor(context?: string, options: ConsoleLoggerOptions = {}) {
    // Colours only when a human is watching stderr; clients usually capture it into a log file.
    const withDefaults: ConsoleLoggerOptions = { colors: Boolean(process.stderr.isTTY), ...options };
    if (context === undefined) super(withDefaults);
    else super(context, withDefaults);
  }

  protected override printMessages(
    messages: unknown[],
    context?: string,
    logLevel?: LogLevel,
    _writeStreamType?: 'stdout' | 'stderr',
    errorStack?: unknown,
    params?: Record<string, unknown>,
  ): void {
    super.printMessages(messages, context, logLevel, 'stderr', errorStack, params);
  }
}
