import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { context, metrics, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncHooksContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { AggregationTemporality, DataPointType, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { lastValueFrom } from 'rxjs';
import { McpDispatcher } from '../lib/dispatch/mcp.dispatcher.js';
import type { JsonRpcRequest } from '../lib/index.js';
import { classifyOutbound, McpTelemetry, parseTraceparent } from '../lib/telemetry/mcp-telemetry.js';
import { TelemetryFixtureModule } from './src/nest-telemetry.fixture.js';
import { callMcp, rpc, startApp, type StartedApp } from './support/mcp-http.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_SPAN_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_SPAN_ID}-01`;

const spans = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] });
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
const meterProvider = new MeterProvider({ readers: [reader] });
const contextManager = new AsyncHooksContextManager();

/** Serves one request through the real dispatcher, which wraps it in the telemetry. */
function serve(started: StartedApp, request: JsonRpcRequest) {
  return lastValueFrom(started.app.get(McpDispatcher).dispatch(request));
}

function mcpSpans(): ReadableSpan[] {
  return spans.getFinishedSpans().filter((span) => span.instrumentationScope.name === 'nest-mcp');
}

async function collect(name: string) {
  await reader.forceFlush();
  const all = metricExporter.getMetrics().at(-1)?.scopeMetrics.flatMap((scope) => scope.metrics) ?? [];
  return all.find((metric) => metric.descriptor.name === name);
}

describe('OpenTelemetry (SDK registered)', () => {
  let started: StartedApp;

  beforeAll(async () => {
    context.setGlobalContextManager(contextManager.enable());
    trace.setGlobalTracerProvider(tracerProvider);
    metrics.setGlobalMeterProvider(meterProvider);
    started = await startApp([TelemetryFixtureModule]);
  });
  afterAll(async () => {
    await started?.app.close();
    await meterProvider.shutdown();
    await tracerProvider.shutdown();
    trace.disable();
    metrics.disable();
    context.disable();
  });
  beforeEach(() => spans.reset());

  it('a tools/call is a SERVER span "tools/call <tool>", child of _meta.traceparent, parent of the tool\'s own spans', async () => {
    const request = rpc('tools/call', { name: 'traced', arguments: { word: 'hi' } }, { id: 7, meta: { traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' } });
    const outcome = await serve(started, request);
    expect(outcome).toMatchObject({ kind: 'response', httpStatus: 200 });
    const [span] = mcpSpans();
    expect(span.name).toBe('tools/call traced');
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(span.parentSpanContext?.isRemote).toBe(true);
    expect(span.parentSpanContext?.traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    expect(span.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'traced',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2026-07-28',
      'jsonrpc.request.id': '7',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    const child = spans.getFinishedSpans().find((finished) => finished.name === 'app.work')!;
    expect(child.parentSpanContext?.spanId).toBe(span.spanContext().spanId);
    expect(child.spanContext().traceId).toBe(TRACE_ID);
  });

  it('a tool error result → error.type "tool_error", status ERROR', async () => {
    await serve(started, rpc('tools/call', { name: 'fails', arguments: {} }));
    const [span] = mcpSpans();
    expect(span.attributes['error.type']).toBe('tool_error');
    expect(span.attributes).not.toHaveProperty('rpc.response.status_code');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('a caller error (-32602, unknown tool) records rpc.response.status_code but is not a server error', async () => {
    await serve(started, rpc('tools/call', { name: 'nope', arguments: {} }));
    const [span] = mcpSpans();
    expect(span.attributes['rpc.response.status_code']).toBe('-32602');
    expect(span.attributes).not.toHaveProperty('error.type');
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('a guard denial (-31003) is an error: error.type is the code, the status message the JSON-RPC message', async () => {
    await serve(started, rpc('tools/call', { name: 'denied', arguments: {} }));
    const [span] = mcpSpans();
    expect(span.attributes['rpc.response.status_code']).toBe('-31003');
    expect(span.attributes['error.type']).toBe('-31003');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'Forbidden resource' });
  });

  it('prompts/get and resources/read: gen_ai.prompt.name in the name; the URI as an attribute only', async () => {
    await serve(started, rpc('prompts/get', { name: 'greeting' }));
    await serve(started, rpc('resources/read', { uri: 'docs://readme' }));
    const [prompt, resource] = mcpSpans();
    expect(prompt.name).toBe('prompts/get greeting');
    expect(prompt.attributes['gen_ai.prompt.name']).toBe('greeting');
    expect(resource.name).toBe('resources/read');
    expect(resource.attributes['mcp.resource.uri']).toBe('docs://readme');
  });

  it('without traceparent the ambient context is the parent; with one, the ambient span is linked', async () => {
    const tracer = trace.getTracer('http');
    await tracer.startActiveSpan('POST /mcp', async (http) => {
      await serve(started, rpc('tools/list'));
      await serve(started, rpc('tools/list', {}, { meta: { traceparent: TRACEPARENT } }));
      http.end();
    });
    const [plain, linked] = mcpSpans();
    const http = spans.getFinishedSpans().find((span) => span.name === 'POST /mcp')!;
    expect(plain.name).toBe('tools/list');
    expect(plain.parentSpanContext?.spanId).toBe(http.spanContext().spanId);
    expect(linked.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(linked.links.map((link) => link.context.spanId)).toEqual([http.spanContext().spanId]);
  });

  it('a registered global propagator is used for _meta (W3C from @opentelemetry/core)', async () => {
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    try {
      await serve(started, rpc('tools/list', {}, { meta: { traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE' } }));
    } finally {
      propagation.disable();
    }
    const [span] = mcpSpans();
    expect(span.parentSpanContext?.spanId).toBe(PARENT_SPAN_ID);
    expect(span.parentSpanContext?.traceState?.get('congo')).toBe('t61rcWkgMzE');
  });

  it('a malformed traceparent is ignored (a new trace starts)', async () => {
    await serve(started, rpc('tools/list', {}, { meta: { traceparent: 'garbage' } }));
    const [span] = mcpSpans();
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.spanContext().traceId).not.toBe(TRACE_ID);
  });

  it('records mcp.server.operation.duration (s) and the tool call counter', async () => {
    await serve(started, rpc('tools/call', { name: 'traced', arguments: { word: 'x' } }));
    await serve(started, rpc('tools/call', { name: 'fails', arguments: {} }));
    const duration = await collect('mcp.server.operation.duration');
    expect(duration?.descriptor.unit).toBe('s');
    expect(duration?.dataPointType).toBe(DataPointType.HISTOGRAM);
    const toolPoints = duration!.dataPoints.filter((point) => point.attributes['mcp.method.name'] === 'tools/call');
    const traced = toolPoints.find((point) => point.attributes['gen_ai.tool.name'] === 'traced' && !('error.type' in point.attributes))!;
    expect((traced.value as { count: number }).count).toBeGreaterThanOrEqual(2);
    expect(traced.attributes).toMatchObject({ 'mcp.protocol.version': '2026-07-28', 'gen_ai.operation.name': 'execute_tool' });
    expect(Object.keys(traced.attributes)).not.toContain('jsonrpc.request.id');
    const resourcePoint = duration!.dataPoints.find((point) => point.attributes['mcp.method.name'] === 'resources/read')!;
    expect(Object.keys(resourcePoint.attributes)).not.toContain('mcp.resource.uri');
    const calls = await collect('nest_mcp.server.tool.calls');
    const failed = calls!.dataPoints.find((point) => point.attributes['gen_ai.tool.name'] === 'fails' && point.attributes['error.type'] === 'tool_error');
    expect(failed?.value).toBeGreaterThanOrEqual(2);
  });

  it('over real HTTP the module serves as before (no SDK coupling in the request path)', async () => {
    const response = await callMcp(started.url, 'tools/call', { name: 'traced', arguments: { word: 'http' } });
    expect(response.body.result.content[0].text).toBe('traced http');
  });

  it('HTTP facts become network.* and client.* attributes', async () => {
    const telemetry = started.app.get(McpTelemetry);
    const httpRequest = { headers: {}, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1', remotePort: 50123 } };
    await telemetry.instrument(rpc('tools/list'), async () => ({}), undefined, { httpRequest });
    const [span] = mcpSpans();
    expect(span.attributes).toMatchObject({
      'network.transport': 'tcp',
      'network.protocol.name': 'http',
      'network.protocol.version': '1.1',
      'client.address': '127.0.0.1',
      'client.port': 50123,
    });
  });

  it('an error thrown by the wrapped run is recorded and rethrown', async () => {
    const telemetry = started.app.get(McpTelemetry);
    await expect(telemetry.instrument(rpc('tools/list'), async () => {
      throw new TypeError('broken');
    })).rejects.toThrow('broken');
    const [span] = mcpSpans();
    expect(span.attributes['error.type']).toBe('TypeError');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'broken' });
    expect(span.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('telemetry: { enabled: false } makes no spans', async () => {
    const telemetry = new McpTelemetry({ telemetry: { enabled: false } });
    expect(await telemetry.instrument(rpc('tools/list'), async () => 42)).toBe(42);
    expect(mcpSpans()).toEqual([]);
  });

  it('explicit providers in the options win over the global ones', async () => {
    const own = new InMemorySpanExporter();
    const ownProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(own)] });
    const telemetry = new McpTelemetry({ telemetry: { tracerProvider: ownProvider } });
    await telemetry.instrument(rpc('tools/list'), async () => 1);
    expect(own.getFinishedSpans().map((span) => span.name)).toEqual(['tools/list']);
    expect(mcpSpans()).toEqual([]);
  });
});

describe('OpenTelemetry without an SDK', () => {
  it('instrument() is a transparent no-op', async () => {
    const telemetry = new McpTelemetry();
    expect(trace.getTracer('x').startSpan('probe').isRecording()).toBe(false);
    expect(await telemetry.instrument(rpc('tools/call', { name: 'a' }), async () => 'value', classifyOutbound)).toBe('value');
    // Nothing could observe a span: the request runs as it is, not wrapped in another promise.
    const outcome = Promise.resolve('value');
    expect(telemetry.instrument(rpc('tools/call', { name: 'a' }), () => outcome, classifyOutbound)).toBe(outcome);
  });

  it('a context manager alone still carries the traceparent of _meta into the handler', async () => {
    context.setGlobalContextManager(new AsyncHooksContextManager().enable());
    try {
      const telemetry = new McpTelemetry();
      const request = rpc('tools/call', { name: 'a' }, { meta: { traceparent: TRACEPARENT } });
      const seen = await telemetry.instrument(request, async () => trace.getSpanContext(context.active()), classifyOutbound);
      expect(seen).toMatchObject({ traceId: TRACE_ID, spanId: PARENT_SPAN_ID, isRemote: true });
    } finally {
      context.disable();
    }
  });

  it('an SDK registered after start-up gets the spans', async () => {
    const telemetry = new McpTelemetry();
    const outcome = Promise.resolve('value');
    expect(telemetry.instrument(rpc('tools/call', { name: 'a' }), () => outcome, classifyOutbound)).toBe(outcome);
    const late = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(late)] }));
    try {
      const traced = telemetry.instrument(rpc('tools/call', { name: 'late' }), () => outcome, classifyOutbound);
      expect(traced).not.toBe(outcome);
      await traced;
      expect(late.getFinishedSpans().map((span) => span.name)).toEqual(['tools/call late']);
    } finally {
      trace.disable();
    }
  });
});

describe('parseTraceparent', () => {
  it.each([
    [TRACEPARENT, { traceId: TRACE_ID, spanId: PARENT_SPAN_ID, traceFlags: 1, isRemote: true }],
    [`00-${TRACE_ID}-${PARENT_SPAN_ID}-00`, { traceId: TRACE_ID, spanId: PARENT_SPAN_ID, traceFlags: 0, isRemote: true }],
    [`01-${TRACE_ID}-${PARENT_SPAN_ID}-09-future`, { traceId: TRACE_ID, spanId: PARENT_SPAN_ID, traceFlags: 1, isRemote: true }],
  ])('accepts %s', (value, expected) => {
    expect(parseTraceparent(value)).toEqual(expected);
  });

  it.each([
    'garbage',
    `ff-${TRACE_ID}-${PARENT_SPAN_ID}-01`,
    `00-${TRACE_ID}-${PARENT_SPAN_ID}-01-extra`,
    `00-${'0'.repeat(32)}-${PARENT_SPAN_ID}-01`,
    `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
    `00-${TRACE_ID.toUpperCase()}-${PARENT_SPAN_ID}-01`,
  ])('rejects %s', (value) => {
    expect(parseTraceparent(value)).toBeUndefined();
  });

  it('keeps tracestate', () => {
    expect(parseTraceparent(TRACEPARENT, 'a=1,b=2')?.traceState?.serialize()).toBe('a=1,b=2');
  });
});
