/**
 * nest-mcp: serve the Model Context Protocol (2026-07-28) from a NestJS application.
 * Every export is named here: the public API is this list, and etc/nest-mcp.api.md records it for review.
 * @publicApi
 */
// First: an older Node.js stops here with one line.
import './node-floor.js';

// The module and its options
export { McpModule } from './mcp.module.js';
export type {
  McpModuleOptions,
  McpOptionsFactory,
  McpProtocolPosture,
  McpServerCardOptions,
  McpTelemetryOptions,
} from './interfaces/mcp-module-options.interface.js';
export { McpConfigurationError } from './config/setting-sources.js';

// Handlers: decorators, their options and what they return
export {
  Elicitor,
  McpArg,
  McpArgs,
  McpComplete,
  McpPrompt,
  McpRequest,
  McpResource,
  McpResourceTemplate,
  McpTool,
  PromptContext,
  ResourceContext,
  ToolContext,
  type McpHandlerArgs,
  type McpToolReturn,
  type McpTypedMethodDecorator,
  type McpTypedToolResult,
} from './decorators/index.js';
export type {
  McpArgOptions,
  McpCacheOptions,
  McpCompleteOptions,
  McpPromptOptions,
  McpResourceCommonOptions,
  McpResourceOptions,
  McpResourceTemplateOptions,
  McpToolOptions,
} from './interfaces/handler-metadata.interface.js';
export type { McpPromptResult, McpToolResult } from './interfaces/handler-results.interface.js';
export { McpHandlerKind } from './interfaces/mcp-handler-kind.enum.js';
export { McpSkill, type McpSkillContent, type McpSkillOptions } from './skills/index.js';
export { McpAppResource, McpUi, type McpAppCsp, type McpAppResourceOptions, type McpAppResourceUi, type McpUiOptions, type McpUiVisibility } from './apps/index.js';
export type { McpAiCatalog, McpAiCatalogEntry, McpServerCard, McpServerCardRemote } from './server-card/index.js';

// The handler's context
export type {
  ElicitationForm,
  ElicitOptions,
  McpElicitor,
  McpProgressReporter,
  McpPromptContext,
  McpRequestInfo,
  McpResourceContext,
  McpToolContext,
} from './context/mcp-context.interface.js';
export { MCP_CONTEXT_TYPE } from './mcp.constants.js';
export { McpExecutionContext, type McpContextType } from './invocation/mcp-execution-context.js';
export type { McpInvocation, McpInvocationKind } from './invocation/mcp-invocation.js';
export { mcpInvocationOf } from './routes/index.js';
export {
  ElicitResult,
  ElicitationSchemaBuilder,
  type BooleanPropertyCustomizer,
  type ChoicePropertyCustomizer,
  type ChoicesPropertyCustomizer,
  type ElicitationBooleanSchema,
  type ElicitationChoiceOption,
  type ElicitationNumberSchema,
  type ElicitationPropertySchema,
  type ElicitationRequestedSchema,
  type ElicitationStringFormat,
  type ElicitationStringSchema,
  type ElicitationTitledMultiSelectSchema,
  type ElicitationTitledOption,
  type ElicitationTitledSingleSelectSchema,
  type ElicitationUntitledMultiSelectSchema,
  type ElicitationUntitledSingleSelectSchema,
  type NumberPropertyCustomizer,
  type PropertyCustomizerFn,
  type StringPropertyCustomizer,
} from './elicitation/index.js';
export { ClientAnswerError, ClientAnswerTimeoutError } from './era/client-requests.js';
export { InputRequiredSignal, isInputRequiredSignal } from './mrtr/input-required.signal.js';
export {
  CountingProgress,
  createProgressSource,
  DoubleProgress,
  LongProgress,
  NOOP_PROGRESS_SINK,
  PercentProgress,
  type ProgressSink,
  type ProgressSource,
} from './progress/index.js';

// Results and errors
export {
  audio,
  Content,
  embeddedBlob,
  embeddedText,
  image,
  isCallToolResultLike,
  isContentBlock,
  resourceLink,
  text,
  type AnnotationsInput,
  type BinaryData,
  type ContentAudience,
  type ResourceLinkInput,
} from './results/content.js';
export { McpToolError } from './results/tool-error.js';
export {
  CallTimeoutError,
  HeaderMismatchError,
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  McpError,
  McpServerErrorCode,
  MethodNotFoundError,
  MissingRequiredClientCapabilityError,
  ParseError,
  ResourceNotFoundError,
  ShuttingDownError,
  UnsupportedProtocolVersionError,
} from './protocol/mcp.error.js';
export { JsonRpcErrorCode } from './protocol/protocol.constants.js';

// The protocol's types that handlers return and that the types above refer to
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CacheHints,
  CacheScope,
  CallToolResult,
  ClientCapabilities,
  CompleteResult,
  ContentBlock,
  CreateMessageInputRequest,
  ElicitAction,
  ElicitContentValue,
  ElicitInputRequest,
  ElicitRequestFormParams,
  ElicitRequestUrlParams,
  ElicitResponse,
  EmbeddedResource,
  GetPromptResult,
  Icon,
  ImageContent,
  Implementation,
  InputRequest,
  InputRequests,
  InputResponse,
  InputResponses,
  JsonObject,
  JsonRpcErrorObject,
  JsonRpcNotification,
  JsonRpcRequest,
  JsonSchemaObject,
  JsonValue,
  ListRootsInputRequest,
  ProgressNotificationParams,
  ProgressToken,
  Prompt,
  PromptArgument,
  PromptMessage,
  PromptReference,
  ReadResourceResult,
  RequestId,
  ResourceContents,
  ResourceDescriptor,
  ResourceLink,
  ResourceTemplateDescriptor,
  ResourceTemplateReference,
  Result,
  ResultType,
  TextContent,
  TextResourceContents,
  Tool,
  ToolAnnotations,
} from './protocol/wire.types.js';
export type { MaybePromise } from './protocol/maybe-promise.js';

// Argument schemas
export { McpField, McpObject } from './schema/index.js';
export type {
  McpFieldOptions,
  McpObjectOptions,
  McpSchemaInput,
  McpSchemaOutput,
  McpStandardSchema,
  StandardJSONSchemaV1,
  StandardSchemaV1,
  StandardTypedV1,
} from './schema/index.js';

// The registry at run time, custom methods, change notifications across instances
export { McpRegistry, type McpChange, type McpListKind } from './registry/mcp.registry.js';
export { McpFleet } from './registry/change-notifications.js';
export {
  McpCustomMethods,
  type McpCustomMethodEra,
  type McpCustomMethodHandler,
  type McpCustomMethodOptions,
} from './registry/custom-methods.js';

// Authorization
export {
  AuthorizationServerUnavailableError,
  getMcpAuth,
  InvalidTokenError,
  McpAccessErrorCode,
  McpAuth,
  McpForbiddenError,
  McpInsufficientScopeError,
  McpIntrospectionVerifier,
  McpJwtVerifier,
  McpScopes,
  McpScopesGuard,
  McpUnauthorizedError,
  type McpAuthenticatedRequest,
  type McpAuthInfo,
  type McpAuthOptions,
  type McpIntrospectionVerifierOptions,
  type McpJwtVerifierOptions,
  type McpProtectedResourceMetadata,
  type McpTokenVerifier,
} from './auth/index.js';

// State shared by instances: the store and the bus
export {
  ClientLimitError,
  InMemoryMcpStore,
  McpStoreErrorCode,
  RedisMcpStore,
  StoreFullError,
  StoreUnavailableError,
  type InMemoryMcpStoreOptions,
  type McpRecordKind,
  type McpRecordLimit,
  type McpRecordScope,
  type McpStore,
  type McpStoreBudgets,
  type RedisCommands,
  type RedisMcpStoreOptions,
} from './store/index.js';
export {
  BusUnavailableError,
  InMemoryMcpBus,
  RedisMcpBus,
  type McpBus,
  type McpBusUnsubscribe,
  type RedisMcpBusOptions,
  type RedisPublisher,
  type RedisSubscriber,
} from './bus/index.js';

// stdio
export { bootstrapStdio, McpStdioTransport, StderrConsoleLogger, type McpStdioServer, type StdioBootstrapOptions } from './transport/stdio/index.js';
