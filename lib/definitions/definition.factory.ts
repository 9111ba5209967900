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
import { ArgumentValidator, assertValidSchema, dtoToJsonSchema } from '../schema/index.js';
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
  readonly validator: ArgumentValidator;
  /** The `@McpArgs()` DTO class, when arguments are transformed into one. */
  readonly dto?: Function;
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
    const { inputSchema, dto, headerParams } = buildInputSchema(method, this.warnings, metadata.inputSchema);
    return { ...this.toolDefinition(metadata, inputSchema, this.outputSchema(method, metadata.output), method.source), dto, headerParams, task: metadata.task, taskStart: metadata.taskStart };
  }

  /** A tool added at run time (`McpRegistry.addTool`): the same rules, its schema given or any object. */
  runtimeTool(metadata: McpToolMetadata, source: string): ToolDefinition {
    assertToolRules(metadata, source);
    const inputSchema = metadata.inputSchema ?? { type: 'object' as const };
    return this.toolDefinition(metadata, buildInputSchema({ source, params: [], argOptions: {}, paramTypes: [] }, this.warnings, inputSchema).inputSchema, undefined, source);
  }

  prompt(method: HandlerMethod, metadata: McpPromptMetadata): PromptDefinition {
    if (!metadata.description?.trim()) throw new Error(MISSING_DESCRIPTION('prompt', method.source));
    const { schemas, required, dto } = this.stringArguments(method);
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
    return { definition, source: method.source, argumentSchemas: schemas, dto };
  }

  resource(source: string, metadata: McpResourceOptions): ResourceDefinition {
    const { cache, hideWhenDenied: _hidden, ...definition } = metadata;
    if (!URL.canParse(definition.uri)) throw new Error(INVALID_RESOURCE(source, `"${definition.uri}" is not an absolute URI`));
    return { definition, source, cache };
  }

  /** A template; `method` is absent for run-time additions, whose variables are all strings. */
  resourceTemplate(source: string, metadata: McpResourceTemplateOptions, method?: HandlerMethod): ResourceTemplateDefinition {
    const { cache, hideWhenDenied: _hidden, ...definition } = metadata;
    const template = new UriTemplate(metadata.uriTemplate);
    const schemas = method ? this.stringArguments(method).schemas : {};
    const unknown = Object.keys(schemas).filter((name) => !template.variables.includes(name));
    if (unknown.length > 0) {
      throw new Error(INVALID_RESOURCE(source, `@McpArg ${unknown.join(', ')} is not a variable of "${metadata.uriTemplate}"`));
    }
    const variableSchemas = Object.fromEntries(
      template.variables.map((name) => [name, Object.hasOwn(schemas, name) ? schemas[name] : { type: 'string' }]),
    );
    return { definition, source, template, variableSchemas, cache };
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

  private toolDefinition(metadata: McpToolMetadata, inputSchema: Tool['inputSchema'], outputSchema: JsonSchemaObject | undefined, source: string): ToolDefinition {
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
    return { definition, source, validator: new ArgumentValidator(inputSchema) };
  }

  /**
   * Arguments that arrive as strings (prompt arguments, template variables): their schemas (for
   * conversion, enum completion, titles and descriptions) and which are required.
   */
  private stringArguments(method: HandlerMethod): { schemas: Record<string, JsonSchemaObject>; required: Set<string>; dto?: Function } {
    const { inputSchema, dto } = buildInputSchema(method, this.warnings);
    const properties = (inputSchema.properties ?? {}) as Record<string, JsonSchemaObject>;
    return { schemas: properties, required: new Set((inputSchema.required as string[] | undefined) ?? []), dto };
  }

  private outputSchema(method: HandlerMethod, output: McpToolMetadata['output']): JsonSchemaObject | undefined {
    if (output && typeof output === 'object') {
      assertValidSchema(output, method.source);
      return output;
    }
    const type = output ?? method.returnType;
    if (!isDtoClass(type)) return undefined;
    // Loose output properties only describe less; they let no bad input through, so only an empty DTO is reported.
    this.warnings.emptyDto(type, method.source, 'output');
    return dtoToJsonSchema(type);
  }
}

function assertToolRules(metadata: McpToolMetadata, source: string): void {
  if (!TOOL_NAME.test(metadata.name)) throw new Error(INVALID_TOOL_NAME(metadata.name, source));
  if (!metadata.description?.trim()) throw new Error(MISSING_DESCRIPTION('tool', source));
}
