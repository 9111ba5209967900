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
  type Annotations, type AnnotationsInput, audio, type AudioContent, type BinaryData, type
  BlobResourceContents, type BooleanPropertyCustomizer, bootstrapStdio, BusUnavailableError, type CacheHints,
  type CacheScope, CallTimeoutError, type CallToolResult, type ChoicePropertyCustomizer, type
  ChoicesPropertyCustomizer, ClientAnswerError, ClientAnswerTimeoutError, type ClientCapabilities,
  ClientLimitError, type CompleteResult, Content, type ContentAudience, type ContentBlock, CountingProgress,
  type CreateMessageInputRequest, createProgressSource, DoubleProgress, type ElicitAction, type
  ElicitationBooleanSchema, type ElicitationChoiceOption, type ElicitationForm, type ElicitationNumberSchema,
  type ElicitationPropertySchema, type ElicitationRequestedSchema, ElicitationSchemaBuilder, type
  ElicitationStringFormat, type ElicitationStringSchema, type ElicitationTitledMultiSelectSchema, type
  ElicitationTitledOption, type ElicitationTitledSingleSelectSchema, type
  ElicitationUntitledMultiSelectSchema, type ElicitationUntitledSingleSelectSchema, type ElicitContentValue,
  type ElicitInputRequest, type ElicitOptions, Elicitor, type ElicitRequestFormParams, type
  ElicitRequestUrlParams, type ElicitResponse, ElicitResult, embeddedBlob, type EmbeddedResource,
  embeddedText, getMcpAuth, type GetPromptResult, HeaderMismatchError, type Icon, image, type ImageContent,
  type Implementation, InMemoryMcpBus, InMemoryMcpStore, type InMemoryMcpStoreOptions, type InputRequest, type
  InputRequests, InputRequiredSignal, type InputResponse, type InputResponses, InternalError,
  InvalidParamsError, InvalidRequestError, InvalidTokenError, isCallToolResultLike, isContentBlock,
  isInputRequiredSignal, type JsonObject, JsonRpcErrorCode, type JsonRpcErrorObject, type JsonRpcNotification,
  type JsonRpcRequest, type JsonSchemaObject, type JsonValue, type ListRootsInputRequest, LongProgress, type
  MaybePromise, MCP_CONTEXT_TYPE, McpAccessErrorCode, type McpAppCsp, McpAppResource, type
  McpAppResourceOptions, type McpAppResourceUi, McpArg, type McpArgOptions, McpArgs, McpAuth, type
  McpAuthenticatedRequest, type McpAuthInfo, type McpAuthOptions, type McpBus, type McpBusUnsubscribe, type
  McpCacheOptions, type McpChange, McpComplete, type McpCompleteOptions, McpConfigurationError, type
  McpContextType, type McpCustomMethodEra, type McpCustomMethodHandler, type McpCustomMethodOptions,
  McpCustomMethods, type McpElicitor, McpError, McpExecutionContext, McpField, type McpFieldOptions, McpFleet,
  McpForbiddenError, type McpHandlerArgs, McpHandlerKind, McpInsufficientScopeError, McpIntrospectionVerifier,
  type McpIntrospectionVerifierOptions, type McpInvocation, type McpInvocationKind, McpJwtVerifier, type
  McpJwtVerifierOptions, type McpListKind, McpModule, type McpModuleOptions, McpObject, type McpObjectOptions,
  type McpOptionsFactory, type McpProgressReporter, McpPrompt, type McpPromptContext, type McpPromptOptions,
  type McpPromptResult, type McpProtectedResourceMetadata, type McpProtocolPosture, type McpRecordKind, type
  McpRecordScope, McpRegistry, McpRequest, type McpRequestInfo, McpResource, type McpResourceCommonOptions,
  type McpResourceContext, type McpResourceOptions, McpResourceTemplate, type McpResourceTemplateOptions, type
  McpSchemaInput, type McpSchemaOutput, McpScopes, McpScopesGuard, McpServerErrorCode, McpSkill, type
  McpSkillContent, type McpSkillOptions, type McpStandardSchema, type McpStdioServer, McpStdioTransport, type
  McpStore, type McpStoreBudgets, McpStoreErrorCode, type McpTelemetryOptions, type McpTokenVerifier, McpTool,
  type McpToolContext, McpToolError, type McpToolOptions, type McpToolResult, type McpToolReturn, type
  McpTypedMethodDecorator, type McpTypedToolResult, McpUi, type McpUiOptions, type McpUiVisibility,
  McpUnauthorizedError, MethodNotFoundError, MissingRequiredClientCapabilityError, NOOP_PROGRESS_SINK, type
  NumberPropertyCustomizer, ParseError, PercentProgress, type ProgressNotificationParams, type ProgressSink,
  type ProgressSource, type ProgressToken, type Prompt, type PromptArgument, PromptContext, type
  PromptMessage, type PromptReference, type PropertyCustomizerFn, type ReadResourceResult, type RedisCommands,
  RedisMcpBus, type RedisMcpBusOptions, RedisMcpStore, type RedisMcpStoreOptions, type RedisPublisher, type
  RedisSubscriber, type RequestId, type ResourceContents, ResourceContext, type ResourceDescriptor,
  resourceLink, type ResourceLink, type ResourceLinkInput, ResourceNotFoundError, type
  ResourceTemplateDescriptor, type ResourceTemplateReference, type Result, type ResultType, ShuttingDownError,
  type StandardJSONSchemaV1, type StandardSchemaV1, type StandardTypedV1, StderrConsoleLogger, type
  StdioBootstrapOptions, StoreFullError, StoreUnavailableError, type StringPropertyCustomizer, text, type
  TextContent, type TextResourceContents, type Tool, type ToolAnnotations, ToolContext,
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
