/**
 * Optional tracing for the sample: `OTEL_TRACES_CONSOLE=1 npm start` prints a span per MCP request
 * (and per tool's own spans) to the console. nest-mcp itself only uses `@opentelemetry/api`; an
 * application registers an SDK like this one (here the devDependencies `@opentelemetry/sdk-trace-base`
 * and `@opentelemetry/context-async-hooks`; in production usually `@opentelemetry/sdk-node` with an
 * OTLP exporter).
 */
export async function setupTracing(): Promise<void> {
  if (process.env.OTEL_TRACES_CONSOLE !== '1') return;
  const { context, trace } = await import('@opentelemetry/api');
  const { AsyncHooksContextManager } = await import('@opentelemetry/context-async-hooks');
  const { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } = await import('@opentelemetry/sdk-trace-base');
  context.setGlobalContextManager(new AsyncHooksContextManager().enable());
  // No propagator needed for `_meta.traceparent`: nest-mcp reads W3C trace context itself when none is registered.
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] }));
}
