// The prelude of the documentation's fragments (see docs/README.md, "Writing these pages"). A block marked
// <!-- prelude: module --> stands in place of the module comment line below, one marked
// <!-- prelude: class-body --> in place of the class-body comment line; the other marker line is dropped.
// What is declared here, a fragment uses without importing or declaring it.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { BadRequestException, CanActivate, ExecutionContext, Inject, Injectable, Module, NotFoundException, Scope, UseGuards, UseInterceptors, UsePipes } from '@nestjs/common';
import { IsDefined, IsEmail, IsEnum, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { z } from 'zod';
import {
  type Annotations, type AnnotationsInput, APP_MIME_TYPE, audio, type AudioContent, type BinaryData, type
  BlobResourceContents, bootstrapStdio, BusUnavailableError, type CacheHints, type CacheScope, CallTimeoutError,
  type CallToolResult, classifyMessage, classifyOutbound, ClientAnswerError, ClientAnswerTimeoutError, type
  ClientCapabilities, ClientLimitError, type ClientResponse, type CompleteResult, Content, type ContentAudience,
  type ContentBlock, CountingProgress, type CreateMessageInputRequest, createProgressSource,
  DIRECTORY_MIME_TYPE, DoubleProgress, type ElicitAction, type ElicitationForm, ElicitationSchemaBuilder, type
  ElicitContentValue, type ElicitInputRequest, type ElicitOptions, Elicitor, type ElicitRequestFormParams, type
  ElicitRequestUrlParams, type ElicitResponse, ElicitResult, embeddedBlob, type EmbeddedResource, embeddedText,
  getMcpAuth, type GetPromptResult, HeaderMismatchError, type Icon, image, type ImageContent, type
  Implementation, type IncomingJsonRpc, InMemoryMcpBus, InMemoryMcpStore, type InMemoryMcpStoreOptions, type
  InputRequest, type InputRequests, type InputRequiredResult, InputRequiredSignal, type InputResponse, type
  InputResponses, InternalError, InvalidParamsError, InvalidRequestError, InvalidTokenError,
  isCallToolResultLike, isContentBlock, isInputRequiredSignal, isMcpError, isModernProtocolVersion, type
  JsonObject, JsonRpcErrorCode, type JsonRpcErrorObject, type JsonRpcErrorResponse, type JsonRpcMessage, type
  JsonRpcNotification, type JsonRpcRequest, type JsonRpcResponse, type JsonRpcResultResponse, type
  JsonSchemaObject, type JsonValue, LEGACY_PROTOCOL_VERSIONS, LegacyBadRequestError, LegacySessionErrorCode,
  type ListPromptsResult, type ListResourcesResult, type ListResourceTemplatesResult, type
  ListRootsInputRequest, type ListToolsResult, LongProgress, MAX_ID_LENGTH, MCP_CONTEXT_TYPE,
  MCP_INSTRUMENTATION_NAME, MCP_MODULE_OPTIONS, MCP_SCOPES_METADATA, McpAccessErrorCode, type McpAppCsp,
  McpAppResource, type McpAppResourceOptions, type McpAppResourceUi, McpArg, type McpArgOptions, McpArgs,
  McpAuth, type McpAuthenticatedRequest, type McpAuthInfo, type McpAuthOptions, type McpBus, type
  McpBusUnsubscribe, type McpCacheOptions, type McpChange, McpComplete, type McpCompleteOptions,
  McpConfigurationError, type McpContextType, type McpCustomMethodEra, type McpCustomMethodHandler, type
  McpCustomMethodOptions, McpCustomMethods, McpDispatcher, type McpElicitor, McpError, McpExecutionContext,
  McpField, McpFleet, McpForbiddenError, type McpHandlerArgs, McpHandlerKind, McpInsufficientScopeError,
  McpIntrospectionVerifier, type McpIntrospectionVerifierOptions, type McpInvocation, type McpInvocationKind,
  McpJwtVerifier, type McpJwtVerifierOptions, type McpListKind, McpModule, type McpModuleOptions, McpObject,
  type McpOptionsFactory, type McpOutcomeClassification, type McpProgressReporter, McpPrompt, type
  McpPromptContext, type McpPromptMetadata, type McpPromptOptions, type McpPromptResult, type
  McpProtectedResourceMetadata, type McpRecordKind, type McpRecordScope, McpRegistry, McpRequest, type
  McpRequestInfo, McpResource, type McpResourceCommonOptions, type McpResourceContext, type McpResourceOptions,
  McpResourceTemplate, type McpResourceTemplateOptions, type McpSchemaInput, type McpSchemaOutput, McpScopes,
  McpScopesGuard, McpServerErrorCode, McpSkill, type McpSkillContent, type McpSkillOptions, type
  McpStandardSchema, type McpStdioServer, McpStdioTransport, type McpStore, type McpStoreBudgets,
  McpStoreErrorCode, McpTelemetry, type McpTelemetryOptions, type McpTelemetryTransport, type McpTokenVerifier,
  McpTool, type McpToolContext, McpToolError, type McpToolMetadata, type McpToolOptions, type McpToolResult,
  type McpToolReturn, type McpTypedMethodDecorator, type McpTypedToolResult, McpUi, type McpUiOptions, type
  McpUiVisibility, McpUnauthorizedError, META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION,
  META_RESERVED_PREFIX, META_SERVER_INFO, META_SUBSCRIPTION_ID, MethodNotFoundError,
  MissingRequiredClientCapabilityError, ModernEraDisabledError, NeitherEraError, NOOP_PROGRESS_SINK, type
  PaginatedResult, ParseError, parseRequestMeta, PercentProgress, type ProgressNotificationParams, type
  ProgressSink, type ProgressSource, type ProgressToken, type Prompt, type PromptArgument, PromptContext, type
  PromptMessage, type PromptReference, type ReadResourceResult, type RedisCommands, RedisMcpBus, type
  RedisMcpBusOptions, RedisMcpStore, type RedisMcpStoreOptions, type RedisPublisher, type RedisSubscriber, type
  RequestId, type RequestMeta, type ResourceContents, ResourceContext, type ResourceDescriptor, resourceLink,
  type ResourceLink, type ResourceLinkInput, ResourceNotFoundError, type ResourceTemplateDescriptor, type
  ResourceTemplateReference, type Result, type ResultType, type ServerCapabilities, SessionNotFoundError,
  ShuttingDownError, SKILLS_EXTENSION, SPOKEN_VERSIONS, StandaloneStreamConflictError, type
  StandardJSONSchemaV1, type StandardSchemaV1, type StandardTypedV1, StderrConsoleLogger, type
  StdioBootstrapOptions, StoreFullError, StoreUnavailableError, SUPPORTED_PROTOCOL_VERSIONS, TASKS_EXTENSION,
  text, type TextContent, type TextResourceContents, type Tool, type ToolAnnotations, ToolContext, UI_EXTENSION,
  UnsupportedProtocolVersionError
} from 'nest-mcp';

/** What a module-level block may use as given: the run-time registry, a handler's context, the app's services. */
declare const registry: McpRegistry;
declare const ctx: McpToolContext;
declare const services: any;
declare class UserService { [method: string]: (...args: any[]) => any }
enum Role { Member = 'member', Admin = 'admin' }
enum Language { TypeScript = 'typescript', Python = 'python' }

/* module */

@Injectable()
export class Example {
  /** The app's services a block reaches through `this` (this.orders, this.billing, …). */
  [service: string]: any;

  /* class-body */
}
