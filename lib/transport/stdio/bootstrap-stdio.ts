import { Logger, type INestApplicationContext, type LoggerService, type LogLevel, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Console } from 'node:console';
import type { Readable, Writable } from 'node:stream';
import type { McpSettings } from '../../config/mcp-settings.js';
import { MCP_SETTINGS } from '../../mcp.constants.js';
import { McpDispatcher } from '../../dispatch/mcp.dispatcher.js';
import { McpStdioTransport } from './mcp-stdio.transport.js';
import { McpEras } from '../../era/index.js';
import { StderrConsoleLogger } from './stderr-console.logger.js';

/** After the application closed, how long listen streams get to write their completion result. */
const TEARDOWN_GRACE_MS = 1_000;

/** @publicApi */
export interface StdioBootstrapOptions {
  /**
   * Nest's logger for the application context. Defaults to a {@link StderrConsoleLogger}; a list of
   * levels keeps that logger with those levels. Whatever is given must not write to stdout.
   */
  logger?: LoggerService | LogLevel[] | false;
  /** Other application-context options (`logger` above wins). */
  contextOptions?: Omit<NonNullable<Parameters<typeof NestFactory.createApplicationContext>[1]>, 'logger'>;
  /** Defaults to `process.stdin`. */
  input?: Readable;
  /** Defaults to `process.stdout`. */
  output?: Writable;
  /**
   * How long in-flight calls may run after stdin closed before they are aborted. Defaults to
   * `mocapi.limits.shutdown-timeout` (10 s), the bound HTTP shutdown uses too.
   */
  drainTimeoutMs?: number;
  /** Calls `process.exit(0)` once shut down, so stray handles (timers, sockets) cannot keep a dead server alive. Default true. */
  exitOnClose?: boolean;
  /**
   * Points `console.log/info/debug` (stdout) at stderr, so a stray `console.log` in a handler
   * cannot corrupt the protocol stream. Default true when `output` is `process.stdout`.
   */
  redirectConsole?: boolean;
  /** Shuts down on SIGINT/SIGTERM: in-flight calls are aborted, not drained; listen streams still get their completion result. Default true. */
  handleSignals?: boolean;
}

/** A running stdio server. @publicApi */
export interface McpStdioServer {
  readonly app: INestApplicationContext;
  readonly transport: McpStdioTransport;
  /** Resolves when the server has shut down (stdin ended, a signal, or `close()`). */
  readonly closed: Promise<void>;
  /** Drains in-flight calls (bounded), closes the application and, unless `exitOnClose: false`, exits (0, or 1 if closing failed). */
  close(): Promise<void>;
}

/**
 * Runs an application as a local MCP server over stdio (2026-07-28): an application context
 * (no HTTP server, so McpModule's controller is never routed), the same dispatcher and handlers as
 * on HTTP, newline-delimited JSON-RPC on stdin/stdout, and Nest's logs on stderr.
 *
 * On stdin EOF the in-flight calls may finish (bounded by `drainTimeoutMs`), the application
 * closes (listen streams get their completion result), and the process exits with code 0.
 *
 * @example
 * // main-stdio.ts
 * await bootstrapStdio(AppModule);
 * @publicApi
 */
export async function bootstrapStdio(module: Type | object, options: StdioBootstrapOptions = {}): Promise<McpStdioServer> {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  if (options.redirectConsole ?? output === process.stdout) redirectConsoleToStderr();

  const app = await NestFactory.createApplicationContext(module, {
    // Throw instead of process.abort(): the caller decides how a failed start is reported.
    abortOnError: false,
    ...options.contextOptions,
    logger: resolveLogger(options.logger),
  });
  const logger = new Logger('McpStdio');
  let dispatcher: McpDispatcher;
  try {
    dispatcher = app.get(McpDispatcher, { strict: false });
  } catch (error) {
    await app.close();
    throw new Error('bootstrapStdio: the module does not import McpModule (no McpDispatcher found)', { cause: error });
  }
  const settings = app.get<McpSettings>(MCP_SETTINGS, { strict: false });
  const transport = new McpStdioTransport(dispatcher, input, output, app.get(McpEras, { strict: false }));
  const drainTimeoutMs = options.drainTimeoutMs ?? settings.limits.shutdownTimeoutMs;
  const exitOnClose = options.exitOnClose ?? true;

  let shutdown: Promise<void> | undefined;
  const stop = (drain: boolean): Promise<void> =>
    (shutdown ??= (async () => {
      let failed = false;
      transport.stop();
      if (drain && !(await transport.drain(drainTimeoutMs))) {
        logger.warn(`In-flight calls did not finish within ${drainTimeoutMs} ms; aborting them`);
      }
      transport.abortAll(false);
      try {
        // Module destroy hooks end the listen streams; each writes its result and notifications/cancelled.
        await app.close();
        await transport.drain(TEARDOWN_GRACE_MS, true);
      } catch (error) {
        failed = true;
        logger.error('Error while closing the application', error instanceof Error ? error.stack : String(error));
      } finally {
        transport.abortAll();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      await transport.flush();
      if (exitOnClose) process.exit(failed ? 1 : 0);
    })());
  const onSignal = () => void stop(false);
  if (options.handleSignals ?? true) {
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
  }

  void transport.ended.then(() => stop(true));
  transport.start();
  logger.log('MCP server listening on stdio');

  return {
    app,
    transport,
    get closed() {
      return transport.ended.then(() => shutdown);
    },
    close: () => stop(true),
  };
}

function resolveLogger(logger: StdioBootstrapOptions['logger']): LoggerService | LogLevel[] | false {
  if (logger === undefined) return new StderrConsoleLogger();
  if (Array.isArray(logger)) return new StderrConsoleLogger(undefined, { logLevels: logger });
  return logger;
}

let consoleRedirected = false;

/** The stdout-bound console methods write to stderr from now on (idempotent). */
function redirectConsoleToStderr(): void {
  if (consoleRedirected) return;
  consoleRedirected = true;
  const toStderr = new Console({ stdout: process.stderr, stderr: process.stderr });
  console.log = toStderr.log.bind(toStderr);
  console.info = toStderr.info.bind(toStderr);
  console.debug = toStderr.debug.bind(toStderr);
  console.dir = toStderr.dir.bind(toStderr);
  console.table = toStderr.table.bind(toStderr);
  console.trace = toStderr.trace.bind(toStderr);
}
