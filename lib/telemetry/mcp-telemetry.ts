import { Inject, Injectable, Optional } from '@nestjs/common';
import {
  context,
  createContextKey,
  createNoopMeter,
  createTraceState,
  isSpanContextValid,
  metrics,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Link,
  type MeterProvider,
  type SpanContext,
  type TextMapGetter,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { MCP_MODULE_OPTIONS } from '../mcp.module-definition.js';
import { META_PROTOCOL_VERSION } from '../protocol/protocol.constants.js';
import type { JsonObject, JsonRpcRequest } from '../protocol/wire.types.js';
import { isPlainObject } from '../protocol/json-value.js';

/** Instrumentation scope of every span and metric. @publicApi */
export const MCP_INSTRUMENTATION_NAME = 'nest-mcp';

/** What a request's outcome was, as telemetry needs it. @publicApi */
export interface McpOutcomeClassification {
  /** A low-cardinality error in a successful result, e.g. `tool_error` for `isError: true`. */
  errorType?: string;
  /** The JSON-RPC error code of an error response. */
  errorCode?: number;
  /** The JSON-RPC error message (the span status description). */
  errorMessage?: string;
}

/** What the transport knows about the request. @publicApi */
export interface McpTelemetryTransport {
  /** The HTTP request (Streamable HTTP); absent on stdio. */
  httpRequest?: unknown;
}

/**
 * JSON-RPC codes that mean "the caller sent a request the server could not serve"; per the OTel MCP
 * conventions they are recorded (`rpc.response.status_code`) but not counted as server errors.
 */
const CALLER_ERROR_CODES: ReadonlySet<number> = new Set([-32700, -32600, -32601, -32602]);

/** Bucket boundaries (seconds) advised for `mcp.server.operation.duration` (those of the OTel GenAI/MCP conventions). */
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

const metaGetter: TextMapGetter<JsonObject> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/** What the API hands out while no SDK registered a tracer or meter provider. */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NOOP_METER = createNoopMeter();
/** A context only a registered context manager can make active (the API's default ignores `with`). */
const PROBE_CONTEXT = ROOT_CONTEXT.setValue(createContextKey('nest-mcp.telemetry.probe'), true);
const probeIsActive = (): boolean => context.active() === PROBE_CONTEXT;

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * Parses a W3C `traceparent` (Trace Context level 1) into a remote span context; `undefined` when
 * malformed. Used when no global propagator is registered.
 * @internal
 */
export function parseTraceparent(traceparent: unknown, tracestate?: unknown): SpanContext | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = TRACEPARENT.exec(traceparent.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  const spanContext: SpanContext = {
    traceId,
    spanId,
    traceFlags: parseInt(flags, 16) & 1,
    isRemote: true,
    ...(typeof tracestate === 'string' && tracestate.trim() ? { traceState: createTraceState(tracestate) } : {}),
  };
  return isSpanContextValid(spanContext) ? spanContext : undefined;
}

interface Instruments {
  provider: MeterProvider;
  /** False for the API's no-op meter: nothing would be recorded. */
  recording: boolean;
  duration: Histogram;
  toolCalls: Counter;
}

/**
 * OpenTelemetry for MCP requests, through `@opentelemetry/api` only (no SDK dependency): a SERVER
 * span per request named `{mcp.method.name} {target}` with the attributes of the OTel MCP semantic
 * conventions, the `mcp.server.operation.duration` histogram and the `nest_mcp.server.tool.calls`
 * counter. The parent is the trace context in `params._meta` (`traceparent`, `tracestate`,
 * `baggage`), extracted with the global propagator when an SDK registered one, else parsed as W3C
 * Trace Context here; the ambient context (e.g. an HTTP server span) is linked. Without a
 * registered SDK every call is a no-op.
 * @publicApi
 */
@Injectable()
export class McpTelemetry {
  private readonly enabled: boolean;
  private readonly tracerProvider: TracerProvider;
  private readonly tracer: Tracer;
  private instruments?: Instruments;

  constructor(@Optional() @Inject(MCP_MODULE_OPTIONS) private readonly options: McpModuleOptions = {}) {
    this.enabled = options?.telemetry?.enabled !== false;
    // The global provider is a proxy, so an SDK registered after start-up still gets the spans.
    this.tracerProvider = options?.telemetry?.tracerProvider ?? trace.getTracerProvider();
    this.tracer = this.tracerProvider.getTracer(MCP_INSTRUMENTATION_NAME);
  }

  /**
   * Runs `run` (the serving of one request) inside its span and records its duration.
   * `classify` tells the outcome apart (JSON-RPC error code, tool error); errors thrown by `run`
   * are recorded and rethrown. Without an SDK it is `run()` itself.
   */
  instrument<T>(
    request: JsonRpcRequest,
    run: () => Promise<T>,
    classify: (outcome: T) => McpOutcomeClassification = () => ({}),
    transport: McpTelemetryTransport = {},
  ): Promise<T> {
    return this.enabled && this.observed() ? this.traced(request, run, classify, transport) : run();
  }

  private async traced<T>(
    request: JsonRpcRequest,
    run: () => Promise<T>,
    classify: (outcome: T) => McpOutcomeClassification,
    transport: McpTelemetryTransport,
  ): Promise<T> {
    const started = performance.now();
    const params = (request.params ?? {}) as JsonObject;
    const meta = isPlainObject(params._meta) ? (params._meta as JsonObject) : {};
    const { common, spanOnly, target } = requestAttributes(request, params, meta, transport.httpRequest);
    const ambient = context.active();
    const parent = this.parentContext(ambient, meta);
    const ambientSpan = trace.getSpanContext(ambient);
    const links: Link[] =
      parent !== ambient && ambientSpan && isSpanContextValid(ambientSpan) ? [{ context: ambientSpan }] : [];
    const span = this.tracer.startSpan(
      target ? `${request.method} ${target}` : request.method,
      { kind: SpanKind.SERVER, attributes: { ...common, ...spanOnly }, links },
      parent,
    );
    const outcomeAttributes: Attributes = {};
    try {
      const outcome = await context.with(trace.setSpan(parent, span), run);
      const { errorType, errorCode, errorMessage } = safeClassify(classify, outcome);
      if (errorCode !== undefined) {
        outcomeAttributes['rpc.response.status_code'] = String(errorCode);
        if (!CALLER_ERROR_CODES.has(errorCode)) outcomeAttributes['error.type'] = String(errorCode);
      }
      if (errorType !== undefined && outcomeAttributes['error.type'] === undefined) outcomeAttributes['error.type'] = errorType;
      span.setAttributes(outcomeAttributes);
      if (outcomeAttributes['error.type'] !== undefined) {
        span.setStatus({ code: SpanStatusCode.ERROR, ...(errorMessage ? { message: errorMessage } : {}) });
      }
      return outcome;
    } catch (error) {
      outcomeAttributes['error.type'] = error instanceof Error ? error.constructor.name || '_OTHER' : '_OTHER';
      span.setAttributes(outcomeAttributes);
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, ...(error instanceof Error ? { message: error.message } : {}) });
      throw error;
    } finally {
      span.end();
      this.record(request, common, outcomeAttributes, (performance.now() - started) / 1000);
    }
  }

  /**
   * False while no SDK is registered (checked per request: one may register after start-up). The
   * span would then be a no-op that no context manager carries to the handler, and the metrics
   * no-ops too, so the request runs as it is, without building attributes or contexts.
   */
  private observed(): boolean {
    const provider = this.tracerProvider;
    if ((provider instanceof ProxyTracerProvider ? provider.getDelegate() : provider) !== NOOP_TRACER_PROVIDER) return true;
    if (this.getInstruments().recording) return true;
    return context.with(PROBE_CONTEXT, probeIsActive);
  }

  private parentContext(ambient: Context, meta: JsonObject): Context {
    // An SDK's registered propagator (W3C trace context + baggage by default) knows best.
    if (propagation.fields().length > 0) return propagation.extract(ambient, meta, metaGetter);
    // The API's default propagator is a no-op: read W3C trace context ourselves.
    const remote = parseTraceparent(meta.traceparent, meta.tracestate);
    return remote ? trace.setSpanContext(ambient, remote) : ambient;
  }

  private record(request: JsonRpcRequest, common: Attributes, outcome: Attributes, seconds: number): void {
    const instruments = this.getInstruments();
    const attributes = { ...common, ...outcome };
    instruments.duration.record(seconds, attributes);
    if (request.method === 'tools/call' && common['gen_ai.tool.name'] !== undefined) {
      instruments.toolCalls.add(1, {
        'gen_ai.tool.name': common['gen_ai.tool.name'],
        ...(outcome['error.type'] !== undefined ? { 'error.type': outcome['error.type'] } : {}),
      });
    }
  }

  /** Instruments of the current meter provider (the global one may be registered after start-up). */
  private getInstruments(): Instruments {
    const provider = this.options?.telemetry?.meterProvider ?? metrics.getMeterProvider();
    if (this.instruments?.provider === provider) return this.instruments;
    const meter = provider.getMeter(MCP_INSTRUMENTATION_NAME);
    this.instruments = {
      provider,
      recording: meter !== NOOP_METER,
      duration: meter.createHistogram('mcp.server.operation.duration', {
        description: 'MCP request duration as observed on the receiver from the time it was received until the result is sent.',
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      }),
      toolCalls: meter.createCounter('nest_mcp.server.tool.calls', {
        description: 'tools/call requests served, by tool name and error type.',
        unit: '{call}',
      }),
    };
    return this.instruments;
  }
}

/**
 * Classifies the dispatcher's outbound response: a JSON-RPC error gives its code and message;
 * a `CallToolResult` with `isError: true` gives `tool_error`.
 * @publicApi
 */
export function classifyOutbound(outbound: unknown): McpOutcomeClassification {
  const message = isPlainObject(outbound) && isPlainObject(outbound.message) ? (outbound.message as JsonObject) : undefined;
  if (!message) return {};
  if (isPlainObject(message.error)) {
    const error = message.error as JsonObject;
    return {
      ...(typeof error.code === 'number' ? { errorCode: error.code } : {}),
      ...(typeof error.message === 'string' ? { errorMessage: error.message } : {}),
    };
  }
  if (isPlainObject(message.result) && (message.result as JsonObject).isError === true) return { errorType: 'tool_error' };
  return {};
}

/** What telemetry reads of Node's HTTP request; the transport hands the request over as `unknown`. */
interface HttpRequestFacts {
  headers?: unknown;
  httpVersion?: unknown;
  socket?: { remoteAddress?: string; remotePort?: unknown };
}

function requestAttributes(
  request: JsonRpcRequest,
  params: JsonObject,
  meta: JsonObject,
  httpRequest: unknown,
): { common: Attributes; spanOnly: Attributes; target?: string } {
  const common: Attributes = { 'mcp.method.name': request.method };
  const spanOnly: Attributes = {};
  let target: string | undefined;
  if (typeof meta[META_PROTOCOL_VERSION] === 'string') common['mcp.protocol.version'] = meta[META_PROTOCOL_VERSION] as string;
  if (request.id !== null && request.id !== undefined) spanOnly['jsonrpc.request.id'] = String(request.id);
  if (request.method === 'tools/call' && typeof params.name === 'string') {
    common['gen_ai.tool.name'] = target = params.name;
    common['gen_ai.operation.name'] = 'execute_tool';
  } else if (request.method === 'prompts/get' && typeof params.name === 'string') {
    common['gen_ai.prompt.name'] = target = params.name;
  } else if (request.method === 'resources/read' && typeof params.uri === 'string') {
    // High cardinality: on spans only, never in the span name or on metrics.
    spanOnly['mcp.resource.uri'] = params.uri;
  }
  const http = httpRequest as HttpRequestFacts | undefined;
  if (http && typeof http === 'object' && typeof http.headers === 'object') {
    common['network.transport'] = 'tcp';
    common['network.protocol.name'] = 'http';
    if (typeof http.httpVersion === 'string') common['network.protocol.version'] = http.httpVersion;
    const address = http.socket?.remoteAddress;
    if (address) {
      spanOnly['client.address'] = address;
      if (typeof http.socket?.remotePort === 'number') spanOnly['client.port'] = http.socket.remotePort;
    }
  }
  return { common, spanOnly, target };
}

function safeClassify<T>(classify: (outcome: T) => McpOutcomeClassification, outcome: T): McpOutcomeClassification {
  try {
    return classify(outcome) ?? {};
  } catch {
    return {};
  }
}
