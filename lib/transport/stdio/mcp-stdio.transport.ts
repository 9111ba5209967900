import { Logger } from '@nestjs/common';
import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { finalize, type Subscription } from 'rxjs';
import type { McpDispatcher, OutboundMessage, TransportFacts } from '../../dispatch/mcp.dispatcher.js';
import type { McpEras, PipeEra } from '../../era/index.js';
import { requestIdKey as keyOf } from '../../dispatch/request-id-key.js';
import { logSafe } from '../../protocol/log-text.js';
import { InvalidRequestError } from '../../protocol/mcp.error.js';
import type { JsonObject, JsonRpcMessage, JsonRpcRequest } from '../../protocol/wire.types.js';
import { classifyLine } from './stdio-message.js';
import { ResultPacing } from '../result-pacing.js';

const LISTEN_METHOD = 'subscriptions/listen';
/** Keeps this pipe's request ids apart from other clients' in the dispatcher (ids are unique per client only). */
const STDIO_SCOPE = 'stdio';

/** One request being served. */
interface InFlight {
  method: string;
  /** Set right after subscribing; the dispatcher never settles synchronously, so it is there before any cancel. */
  subscription?: Subscription;
  /** Settles when the call completes or is unsubscribed, and what it wrote is handed to the pipe (a paused result included). */
  done: Promise<void>;
  settle(): void;
  /** The call's observable has completed or was unsubscribed. */
  finished: boolean;
  /** When the call's result may follow its notifications, so a client reads them first. */
  pacing: ResultPacing;
  /** The call's result and any line after it, waiting out the pause behind its notifications. */
  paused?: JsonRpcMessage[];
  /** Resolves when the paused lines are written; `flush()` awaits it. */
  resumed?: Promise<void>;
  resume?: () => void;
}

/**
 * The stdio edge (2026-07-28): newline-delimited JSON-RPC on a readable/writable pair. Requests go
 * to the dispatcher unchanged (no headers on stdio, all metadata is in `_meta`); its notifications
 * and the final response are written as they come, one compact JSON message per line.
 *
 * Not a Nest provider: it exists only when `bootstrapStdio` wires the process streams to it, so an
 * application that serves HTTP never holds a stdin reader.
 * @publicApi
 */
export class McpStdioTransport {
  private readonly logger = new Logger('McpStdio');
  /** Keyed by type and value: `1` and `"1"` are different JSON-RPC ids. */
  private readonly inFlight = new Map<string, InFlight>();
  private reader?: Interface;
  private outputBroken = false;
  /** Calls whose result is pausing behind their notifications (see `forward()`). */
  private readonly pausing = new Set<InFlight>();
  /** The pipe's era, pinned by its first message. */
  private readonly era: PipeEra;
  /** The pipe's session's notifications going to it, from initialize until the pipe closes. */
  private sessionFeed?: Subscription;
  /**
   * Lines read while an `initialize` waits for the answers to the requests read before it (a
   * `server/discover` probe), handled in order once it is answered. See `initializeInTurn()`.
   */
  private held?: string[];
  /** Resolves once the held lines are handed on (or held again); `drain()` waits for it (they are requests too). */
  private releasing?: Promise<void>;
  /** Set by `abortAll()`: the server is closing, held lines are dropped, not served. */
  private aborting = false;
  private resolveEnded!: () => void;
  /** Resolves when the input ends (EOF) or `stop()` is called. */
  readonly ended = new Promise<void>((resolve) => (this.resolveEnded = resolve));

  constructor(
    private readonly dispatcher: McpDispatcher,
    private readonly input: Readable,
    private readonly output: Writable,
    eras: McpEras,
  ) {
    this.era = eras.pipe();
  }

  /** Starts reading lines. readline buffers partial lines and treats `\r\n` as one line break. */
  start(): void {
    // A client that closed its end makes writes fail with EPIPE; without a listener that would crash the process.
    this.output.on('error', (error: NodeJS.ErrnoException) => {
      if (!this.outputBroken) this.logger.warn(`stdout is no longer writable (${error.code ?? error.message}); stopping`);
      this.outputBroken = true;
      this.stop();
    });
    this.reader = createInterface({ input: this.input, crlfDelay: Infinity, terminal: false });
    this.reader.on('line', (line) => this.handleLine(line));
    this.reader.on('close', () => this.closed());
  }

  /** Stops reading (the same as EOF for the caller awaiting `ended`). */
  stop(): void {
    // Closing the reader emits 'close' at once, which runs closed(); a second close() is a no-op.
    if (this.reader) this.reader.close();
    else this.closed();
  }

  /** The pipe is done: its session's notifications stop with it. */
  private closed(): void {
    this.sessionFeed?.unsubscribe();
    this.resolveEnded();
  }

  /** How many requests are being served, listen streams included. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * Waits for the in-flight calls to finish, up to `timeoutMs`. Listen streams are left out unless
   * asked for: they end only when the server tears them down, so waiting for them would always time out.
   * @returns whether every awaited call finished in time
   */
  async drain(timeoutMs: number, includeListen = false): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      // Lines held behind an initialize become calls once it is answered: wait for them to be handed on first.
      while (this.held && this.releasing) {
        if (!(await Promise.race([this.releasing.then(() => true as const), timedOut]))) return false;
      }
      const pending = [...this.inFlight.values()].filter((call) => includeListen || call.method !== LISTEN_METHOD).map((call) => call.done);
      if (pending.length === 0) return true;
      return await Promise.race([Promise.all(pending).then(() => true as const), timedOut]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Unsubscribes the calls still running: their handlers' signals abort and nothing more is
   * written for them. Listen streams can be spared, so that closing the application still ends
   * them properly (completion result, then notifications/cancelled).
   */
  abortAll(includeListen = true): void {
    this.aborting = true;
    for (const [key, call] of [...this.inFlight]) {
      if (!includeListen && call.method === LISTEN_METHOD) continue;
      this.inFlight.delete(key);
      call.subscription?.unsubscribe();
    }
  }

  /**
   * Resolves once everything written so far has been handed to the OS (before `process.exit`),
   * results still pausing behind their notifications included (each is written at most
   * RESULT_PAUSE_MS after its notification's write completed).
   */
  async flush(): Promise<void> {
    while (this.pausing.size > 0) await Promise.all([...this.pausing].map((call) => call.resumed));
    if (this.outputBroken || this.output.writableEnded) return;
    await new Promise<void>((resolve) => this.output.write('', () => resolve()));
  }

  /** @internal exposed for unit tests; the reader calls it for every line. */
  handleLine(line: string): void {
    if (this.held) {
      this.held.push(line);
      return;
    }
    // Blank lines (e.g. a trailing newline pair) carry no message; answering them would be noise.
    if (line.trim().length === 0) return;
    const incoming = classifyLine(line);
    switch (incoming.kind) {
      case 'invalid':
        this.write({ jsonrpc: '2.0', id: incoming.id ?? null, error: incoming.error.toJsonRpc() });
        return;
      case 'response':
        // The answer to a question a call asked the client. An unknown one is only logged: answering it with
        // an error could collide with a pending request of the client under the same id.
        if (!this.era.answer(incoming.response)) {
          this.logger.debug(`Ignoring a JSON-RPC response no call awaits (id ${logSafe(incoming.id)})`);
        }
        return;
      case 'notification':
        return this.handleNotification(incoming.method, incoming.params);
      case 'request':
        return this.serve(incoming.request);
    }
  }

  private handleNotification(method: string, params: JsonObject | undefined): void {
    // Only cancellation means something to the server; other notifications need no action. The
    // dispatcher ignores unknown, finished or malformed ids (as the spec allows), aborts the handler's signal and
    // completes the call without a response, so nothing more is written for it.
    if (method === 'notifications/cancelled') this.dispatcher.cancel(params, STDIO_SCOPE);
  }

  /** Answers what the pipe's era refuses, and `initialize` itself; else hands back the facts to serve the request with. */
  private admit(request: JsonRpcRequest): TransportFacts | undefined {
    const admission = this.era.admit(request);
    switch (admission.kind) {
      case 'refused':
        this.write({ jsonrpc: '2.0', id: request.id, error: admission.error.toJsonRpc() });
        return undefined;
      case 'initialize':
        this.initializeInTurn(request);
        return undefined;
      case 'serve':
        return admission.era ? { cancellationScope: STDIO_SCOPE, era: admission.era } : { cancellationScope: STDIO_SCOPE };
    }
  }

  /**
   * Answers `initialize` after the requests read before it. The transport answers it itself, at once,
   * while the dispatcher answers a request a few turns later: a dual-era client that wrote a
   * `server/discover` probe and then `initialize` before the server was ready (its probe timed out)
   * would read the initialize answer first and settle for 2025. The requests that can precede a
   * successful initialize do not pin the pipe (a probe, a request with no era), so they are quick;
   * the lines after it wait with it, as a 2025 client waits for the initialize answer anyway.
   */
  private initializeInTurn(request: JsonRpcRequest): void {
    const earlier = [...this.inFlight.values()].map((call) => call.done);
    if (earlier.length === 0) return this.initialize(request);
    const held: string[] = (this.held = []);
    this.releasing = Promise.all(earlier).then(() => {
      this.held = undefined;
      if (this.aborting) return;
      this.initialize(request);
      // handleLine() holds a line again if one of these lines is an initialize that waits its turn in its own right.
      for (const line of held) this.handleLine(line);
    });
  }

  /** `initialize`: answered, and the new session's notifications go to the pipe until it closes. */
  private initialize(request: JsonRpcRequest): void {
    const { message, notifications } = this.era.initialize(request);
    this.write(message);
    this.sessionFeed = notifications?.subscribe({
      next: (notification) => this.write(notification),
      // Only a second subscriber is refused, and this pipe is the session's one holder.
      error: (error: unknown) => this.logger.warn(`The session's notifications stopped: ${error instanceof Error ? error.message : String(error)}`),
    });
  }

  private serve(request: JsonRpcRequest): void {
    const facts = this.admit(request);
    if (!facts) return;
    const key = keyOf(request.id);
    if (this.inFlight.has(key)) {
      this.write({ jsonrpc: '2.0', id: request.id, error: new InvalidRequestError(`Invalid Request: request id ${JSON.stringify(request.id)} is already in use`).toJsonRpc() });
      return;
    }
    let settle!: () => void;
    const done = new Promise<void>((resolve) => (settle = resolve));
    const call: InFlight = { method: request.method, done, settle, finished: false, pacing: new ResultPacing() };
    this.inFlight.set(key, call);
    // No header checks on stdio: all metadata is in `_meta` (or the session). The scope lets notifications/cancelled find the call.
    call.subscription = this.dispatcher
      .dispatch(request, facts)
      .pipe(
        finalize(() => {
          call.finished = true;
          // A pausing result keeps the call in flight, so that drain() waits until it is written.
          if (!call.paused) this.retire(key, call);
        }),
      )
      .subscribe({ next: (outbound) => this.forward(key, call, request, outbound) });
  }

  /** Forgets the call and settles its `done`. Only our own entry: a cancelled id may already be reused by a new request. */
  private retire(key: string, call: InFlight): void {
    if (this.inFlight.get(key) === call) this.inFlight.delete(key);
    call.settle();
  }

  /**
   * Writes what the call emits, in order, with one exception: a result that closely follows the
   * call's notifications pauses (ResultPacing), so that the client reads the notification in an
   * earlier read of the pipe. The result pauses alone: other calls' lines go on meanwhile, and what
   * its own call emits after it (the listen stream's notifications/cancelled) follows it; `drain()`
   * and `flush()` wait for it.
   */
  private forward(key: string, call: InFlight, request: JsonRpcRequest, outbound: OutboundMessage): void {
    if (outbound.kind === 'notification' && !call.paused) {
      const written = call.pacing.notificationWrite();
      if (!this.write(outbound.message, written)) written();
      return;
    }
    if (outbound.kind === 'response' && !call.paused && call.pacing.holdsResult(() => this.resumeWriting(key, call))) this.pause(call);
    this.emit(call, outbound.message);
    if (outbound.kind === 'response' && request.method === LISTEN_METHOD && 'result' in outbound.message) {
      // The server tore the listen stream down (shutdown): after its completion result, stdio
      // also terminates the stream with notifications/cancelled for the listen id (the cancellation
      // spec requires it of a server that tears a subscription down).
      this.emit(call, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: request.id, reason: 'The server closed the subscription' } });
    }
  }

  /** Writes a line of the call, or queues it behind the call's pausing result. */
  private emit(call: InFlight, message: JsonRpcMessage): void {
    if (call.paused) call.paused.push(message);
    else this.write(message);
  }

  private pause(call: InFlight): void {
    call.paused = [];
    call.resumed = new Promise((resolve) => (call.resume = resolve));
    this.pausing.add(call);
  }

  private resumeWriting(key: string, call: InFlight): void {
    const lines = call.paused ?? [];
    call.paused = undefined;
    for (const line of lines) this.write(line);
    this.pausing.delete(call);
    call.resume?.();
    if (call.finished) this.retire(key, call);
  }

  /** @returns whether the line was handed to the output; `written` runs once its write completed (or failed). */
  private write(message: JsonRpcMessage, written?: () => void): boolean {
    if (this.outputBroken || this.output.writableEnded) return false;
    // JSON.stringify escapes every newline inside strings, so one message is always exactly one line.
    this.output.write(`${JSON.stringify(message)}\n`, written);
    return true;
  }
}

