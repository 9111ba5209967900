/**
 * nest-mcp: serve the Model Context Protocol (2026-07-28) from a NestJS application.
 * @publicApi
 */
// First: an older Node.js stops here with one line.
import './node-floor.js';
export { McpModule } from './mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
export { MCP_CONTEXT_TYPE } from './mcp.constants.js';
export * from './decorators/index.js';
export { McpSkill, type McpSkillContent, type McpSkillOptions } from './skills/index.js';
export type { McpAiCatalog, McpAiCatalogEntry, McpServerCard, McpServerCardRemote } from './server-card/index.js';
export { McpAppResource, McpUi, type McpAppCsp, type McpAppResourceOptions, type McpAppResourceUi, type McpUiOptions, type McpUiVisibility } from './apps/index.js';
export * from './interfaces/index.js';
export * from './context/index.js';
export { McpExecutionContext, type McpContextType } from './invocation/mcp-execution-context.js';
export { mcpInvocationOf } from './routes/index.js';
export { McpRegistry, type McpChange, type McpListKind } from './registry/mcp.registry.js';
export { McpFleet } from './registry/change-notifications.js';
export {
  McpCustomMethods,
  type McpCustomMethodEra,
  type McpCustomMethodHandler,
  type McpCustomMethodOptions,
} from './registry/custom-methods.js';
export { McpDispatcher } from './dispatch/mcp.dispatcher.js';
export { ClientAnswerError, ClientAnswerTimeoutError } from './era/client-requests.js';
export * from './era/wire-2025.js';
export { McpToolError } from './results/tool-error.js';
export { McpConfigurationError } from './config/setting-sources.js';
export { ElicitResult, ElicitationSchemaBuilder } from './elicitation/index.js';
export { InputRequiredSignal, isInputRequiredSignal } from './mrtr/input-required.signal.js';
export * from './progress/index.js';
export * from './results/content.js';
export { McpField, McpObject } from './schema/index.js';
export type {
  McpSchemaInput,
  McpSchemaOutput,
  McpStandardSchema,
  StandardJSONSchemaV1,
  StandardSchemaV1,
  StandardTypedV1,
} from './schema/index.js';
export * from './protocol/index.js';
export * from './auth/index.js';
export * from './telemetry/index.js';
export * from './store/index.js';
export * from './bus/index.js';
export type { McpInvocation, McpInvocationKind } from './invocation/mcp-invocation.js';
export { McpHandlerKind } from './interfaces/mcp-handler-kind.enum.js';
export { bootstrapStdio, McpStdioTransport, StderrConsoleLogger, type McpStdioServer, type StdioBootstrapOptions } from './transport/stdio/index.js';
