export {
  McpTelemetry,
  classifyOutbound,
  MCP_INSTRUMENTATION_NAME,
  type McpOutcomeClassification,
  type McpTelemetryTransport,
} from './mcp-telemetry.js';
