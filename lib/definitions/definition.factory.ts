import type { Logger } from '@nestjs/common';
import type {
  McpCacheOptions,
  McpCompleteOptions,
  McpPromptMetadata,
  McpResourceOptions,
  McpResourceTemplateOptions,
  McpToolMetadata,
} from '../interfaces/handler-metadata.interface.js';
import { INVALID_RESOURCE, INVALID_TOOL_NAME, MISSING_DESCRIPTION } from '../mcp.messages.js';
import type { JsonSchemaObject, Prompt, PromptArgument, ResourceDescriptor, ResourceTemplateDescriptor, Tool } from '../protocol/wire.types.js';
import { ArgumentValidator, assertObjectRootSchema, assertValidSchema, dtoToJsonSchema, isStandardSchema, standardJsonSchema, StandardValidator } from '../schema/index.js';
import type { StandardSchemaV1 } from '../schema/index.js';
import { isDtoClass } from '../schema/schema-helpers.js';
import type { HandlerMethod } from './handler-method.js';
import { buildInputSchema, SchemaWarnings } from './input-schema.js';
import { UriTemplate } from './uri-template.js';

const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** A tool's wire definition and argument checks. @internal */
export interface ToolDefinition {
  readonly definition: Tool;
  /** Where it came from (`Class.method()`), for start-up messages. */
  readonly source: string;
  /** The JSON Schema check of the arguments; absent when a Standard Schema checks them. */
  readonly validator?: ArgumentValidator;
  /** The arguments' Standard Schema: its own `validate` checks them, and its output is what the method gets. */
  readonly argumentSchema?: StandardValidator;
  /** The result's Standard Schema: its `validate` checks the structured result, and its output is sent. */
  readonly resultSchema?: StandardValidator;
  /** The `@McpArgs()` DTO class, when arguments are transformed into one; a route tool's body DTO. */
  readonly dto?: Function;
  /** The argument the DTO is made of, when not all of them (a route tool's body under `body`). */
  readonly dtoArgument?: string;
  /** Arguments mirrored into `Mcp-Param-{header}` headers: property → header suffix. */
  readonly headerParams?: ReadonlyMap<string, string>;
  /** `@McpTool({ task })`: runs as a task for clients with the tasks extension; not on the wire. */
  readonly task?: boolean | 'required';
  readonly taskStart?: 'call' | 'explicit';
}

/** @internal */
export interface PromptDefinition {
  readonly definition: Prompt;
  readonly source: string;
  /** Each argument's JSON Schema, used to convert the string the client sends. */
  readonly argumentSchemas: Readonly<Record<string, JsonSchemaObject>>;
  readonly dto?: Function;
  /** The arguments' Standard Schema (`parameters`), run after the strings are converted. */
  readonly argumentSchema?: StandardValidator;
}

/** @internal */
export interface ResourceDefinition {
  readonly definition: ResourceDescriptor;
  readonly source: string;
  readonly cache?: McpCacheOptions;
}

/** @internal */
export interface ResourceTemplateDefinition {
  readonly definition: ResourceTemplateDescriptor;
  readonly source: string;
  readonly template: UriTemplate;
  readonly variableSchemas: Readonly<Record<string, JsonSchemaObject>>;
  readonly cache?: McpCacheOptions;
  /** The variables' Standard Schema (`parameters`), run after the strings are converted. */
  readonly argumentSchema?: StandardValidator;
}

/** A completion source for one argument of a prompt or template. @internal */
export interface CompletionDefinition {
  /** `prompt:<name>` or `resource:<uriTemplate>`, then `#<argument>`. */
  readonly key: string;
  readonly source: string;
}

export function completionKey(ref: { type: 'prompt' | 'resource'; id: string }, argument: string): string {
  return `${ref.type}:${ref.id}#${argument}`;
}

/**
 * Turns handler metadata into definitions: the name and description rules, the schemas, the
 * argument checks. Reads only what it is given and writes no metadata; the one state it keeps is
 * which DTO holes it has already warned about.
 * @internal
 */
export class McpDefinitionFactory {
  private readonly warnings: SchemaWarnings;

  constructor(private readonly logger: Pick<Logger, 'warn'>) {
    this.warnings = new SchemaWarnings(logger);
  }

  tool(method: HandlerMethod, metadata: McpToolMetadata): ToolDefinition {
    assertToolRules(metadata, method.source);
    const input = toolInput(metadata, method.source);
    const { inputSchema, dto, headerParams } = buildInputSchema(method, this.warnings, input.jsonSchema, input.schema !== undefined);
    const output = this.output(method, toolOutput(metadata, method.source));
    return { ...this.toolDefinition(metadata, inputSchema, input.schema, output, method.source), dto, headerParams, task: metadata.task, taskStart: metadata.taskStart };
  }

  /** A tool added at run time (`McpRegistry.addTool`): the same rules, its schema given or any object. */
  runtimeTool(metadata: McpToolMetadata, source: string): ToolDefinition {
    assertToolRules(metadata, source);
    const input = toolInput(metadata, source);
    const method: HandlerMethod = { source, params: [], argOptions: {}, paramTypes: [] };
    const { inputSchema } = buildInputSchema(method, this.warnings, input.jsonSchema ?? { type: 'object' as const }, input.schema !== undefined);
    const output = this.output(method, toolOutput(metadata, source), false);
    return this.toolDefinition(metadata, inputSchema, input.schema, output, source);
  }

  prompt(method: HandlerMethod, metadata: McpPromptMetadata): PromptDefinition {
    if (!metadata.description?.trim()) throw new Error(MISSING_DESCRIPTION('prompt', method.source));
    const parameters = metadata.parameters;
    if (parameters !== undefined && !isStandardSchema(parameters)) throw new Error(`"parameters" of prompt ${method.source} must be a Standard Schema (Zod, ArkType, Valibot)`);
    const { schemas, required, dto } = this.stringArguments(method, parameters && objectSchema(standardJsonSchema(parameters, 'input', `prompt ${method.source}`), `prompt ${method.source}`));
    const promptArguments: PromptArgument[] = Object.entries(schemas).map(([name, schema]) => ({
      name,
      ...(typeof schema.title === 'string' ? { title: schema.title } : {}),
      ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
      required: required.has(name),
    }));
    const definition: Prompt = {
      name: metadata.name,
      ...(metadata.title ? { title: metadata.title } : {}),
      description: metadata.description,
      ...(promptArguments.length ? { arguments: promptArguments } : {}),
      ...(metadata.icons ? { icons: metadata.icons } : {}),
      ...(metadata._meta ? { _meta: metadata._meta } : {}),
    };
    return { definition, source: method.source, argumentSchemas: schemas, dto, argumentSchema: parameters && new StandardValidator(parameters, { messagePrefix: 'Invalid prompt arguments' }) };
  }

  resource(source: string, metadata: McpResourceOptions): ResourceDefinition {
    const { cache, hideWhenDenied: _hidden, ...definition } = metadata;
    if (!URL.canParse(definition.uri)) throw new Error(INVALID_RESOURCE(source, `"${definition.uri}" is not an absolute URI`));
    return { definition, source, cache };
  }

  /** A template; `method` is absent for run-time additions, whose variables are all strings. */
  resourceTemplate(source: string, metadata: McpResourceTemplateOptions, method?: HandlerMethod): ResourceTemplateDefinition {
    const { cache, hideWhenDenied: _hidden, parameters, ...definition } = metadata;
    const template = new UriTemplate(metadata.uriTemplate);
    const explicit = parameters && objectSchema(standardJsonSchema(parameters, 'input', `the variables of ${source}`), source);
    const schemas = method || explicit ? this.stringArguments(method ?? { source, params: [], argOptions: {}, paramTypes: [] }, explicit).schemas : {};
    const unknown = Object.keys(schemas).filter((name) => !template.variables.includes(name));
    if (unknown.length > 0) {
      throw new Error(INVALID_RESOURCE(source, `@McpArg ${unknown.join(', ')} is not a variable of "${metadata.uriTemplate}"`));
    }
    const variableSchemas = Object.fromEntries(
      template.variables.map((name) => [name, Object.hasOwn(schemas, name) ? schemas[name] : { type: 'string' }]),
    );
    return { definition, source, template, variableSchemas, cache, ...(parameters ? { argumentSchema: new StandardValidator(parameters, { messagePrefix: 'Invalid resource variables' }) } : {}) };
  }

  completion(source: string, metadata: McpCompleteOptions): CompletionDefinition & { ref: { type: 'prompt' | 'resource'; id: string } } {
    const ref = metadata.prompt !== undefined
      ? { type: 'prompt' as const, id: metadata.prompt }
      : metadata.resourceTemplate !== undefined
        ? { type: 'resource' as const, id: metadata.resourceTemplate }
        : undefined;
    if (!ref) throw new Error(`@McpComplete() on ${source} needs a prompt or a resourceTemplate`);
    return { key: completionKey(ref, metadata.argument), source, ref };
  }

  private toolDefinition(
    metadata: McpToolMetadata,
    inputSchema: Tool['inputSchema'],
    argumentSchema: StandardSchemaV1 | undefined,
    output: { outputSchema?: JsonSchemaObject; resultSchema?: StandardValidator },
    source: string,
  ): ToolDefinition {
    const { outputSchema, resultSchema } = output;
    const definition: Tool = {
      name: metadata.name,
      ...(metadata.title ? { title: metadata.title } : {}),
      description: metadata.description,
      inputSchema,
      ...(outputSchema ? { outputSchema } : {}),
      ...(metadata.annotations ? { annotations: metadata.annotations } : {}),
      ...(metadata.icons ? { icons: metadata.icons } : {}),
      ...(metadata._meta ? { _meta: metadata._meta } : {}),
    };
    // A Standard Schema is the one judge of its arguments: ajv on its JSON Schema would refuse what it coerces.
    if (argumentSchema) return { definition, source, argumentSchema: new StandardValidator(argumentSchema), ...(resultSchema ? { resultSchema } : {}) };
    return { definition, source, validator: new ArgumentValidator(inputSchema), ...(resultSchema ? { resultSchema } : {}) };
  }

  /**
   * Arguments that arrive as strings (prompt arguments, template variables): their schemas (for
   * conversion, enum completion, titles and descriptions) and which are required.
   */
  private stringArguments(method: HandlerMethod, explicit?: JsonSchemaObject & { type: 'object' }): { schemas: Record<string, JsonSchemaObject>; required: Set<string>; dto?: Function } {
    const { inputSchema, dto } = buildInputSchema(method, this.warnings, explicit, explicit !== undefined);
    const properties = (inputSchema.properties ?? {}) as Record<string, JsonSchemaObject>;
    return { schemas: properties, required: new Set((inputSchema.required as string[] | undefined) ?? []), dto };
  }

  /** The result's schema: a Standard Schema's output side (checked per call), a raw one, or a DTO's (from the return type when `fromReturnType`). */
  private output(method: HandlerMethod, output: McpToolMetadata['output'], fromReturnType = true): { outputSchema?: JsonSchemaObject; resultSchema?: StandardValidator } {
    if (isStandardSchema(output)) {
      return { outputSchema: standardJsonSchema(output, 'output', `the output of ${method.source}`), resultSchema: new StandardValidator(output, { messagePrefix: 'Invalid result' }) };
    }
    if (output && typeof output === 'object') {
      assertValidSchema(output, method.source);
      return { outputSchema: output };
    }
    const type = output ?? (fromReturnType ? method.returnType : undefined);
    if (!isDtoClass(type)) return {};
    // Loose output properties only describe less; they let no bad input through, so only an empty DTO is reported.
    this.warnings.emptyDto(type, method.source, 'output');
    return { outputSchema: dtoToJsonSchema(type) };
  }
}

/** The arguments' schema named by a tool's options: as JSON Schema, and the Standard Schema it came from. */
function toolInput(metadata: McpToolMetadata, source: string): { jsonSchema?: JsonSchemaObject & { type: 'object' }; schema?: StandardSchemaV1 } {
  if (metadata.inputSchema !== undefined && metadata.parameters !== undefined) {
    throw new Error(`Tool ${source} names both "inputSchema" and "parameters": they are one option under two names`);
  }
  const input = metadata.inputSchema ?? metadata.parameters;
  if (!isStandardSchema(input)) return { jsonSchema: input as (JsonSchemaObject & { type: 'object' }) | undefined };
  return { jsonSchema: objectSchema(standardJsonSchema(input, 'input', `the arguments of ${source}`), source), schema: input };
}

function toolOutput(metadata: McpToolMetadata, source: string): McpToolMetadata['output'] {
  if (metadata.output !== undefined && metadata.outputSchema !== undefined) {
    throw new Error(`Tool ${source} names both "output" and "outputSchema": they are one option under two names`);
  }
  return metadata.output ?? metadata.outputSchema;
}

/** Arguments are named: a schema for them must describe an object. */
function objectSchema(schema: JsonSchemaObject, source: string): JsonSchemaObject & { type: 'object' } {
  assertObjectRootSchema(schema, source);
  return schema;
}

function assertToolRules(metadata: McpToolMetadata, source: string): void {
  if (!TOOL_NAME.test(metadata.name)) throw new Error(INVALID_TOOL_NAME(metadata.name, source));
  if (!metadata.description?.trim()) throw new Error(MISSING_DESCRIPTION('tool', source));
}
