import { Injectable } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { CompletionContext } from '../context/mcp-handler.context.js';
import { completionKey } from '../definitions/definition.factory.js';
import { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import { McpCallPipeline, type CallFamily, type Listing } from '../pipeline/call-pipeline.js';
import { InvalidParamsError, MethodNotFoundError, ResourceNotFoundError } from '../protocol/mcp.error.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { Callable } from '../registry/registered-handlers.js';
import { toCompleteResult } from '../results/completion-result.mapper.js';
import { unknownPrompt } from './prompts.methods.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, JsonSchemaObject, Result } from '../protocol/wire.types.js';

/** A completion source (`source` names it), or the declared enum of an argument without one. */
type Completer = Callable & { source?: string };

/** `completion/complete` for prompt arguments and template variables. @internal */
@Injectable()
export class CompletionMethods {
  /** completion/complete, as the call pipeline runs it: the target is the prompt or template of the ref. */
  private readonly completions: CallFamily<Completer> = {
    method: 'completion/complete',
    canAsk: false,
    context: CompletionContext,
    find: (params) => {
      const { ref, argument } = params;
      if (!isPlainObject(ref) || !isPlainObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
        throw new InvalidParamsError('completion/complete needs "ref" and "argument" { name, value }');
      }
      const completed = this.completed(ref, argument.name);
      const typed = argument.value;
      return {
        kind: 'completion',
        target: completed.id,
        // Without a source of its own, an argument completes from its declared enum.
        entry: this.registry.getCompletion(completionKey(completed, argument.name)) ?? { invoke: async () => enumValues(completed.schema, typed) },
        arguments: { value: typed, context: { arguments: contextArguments(params) } },
        // A prompt or template the caller may not see completes as an unknown one.
        listed: completed.listed,
      };
    },
    checkArguments: ({ arguments: args }) => ({ arguments: args }),
    toResult: (produced, { entry }) => toCompleteResult(produced, entry.source),
  };

  constructor(
    private readonly registry: McpRegistry,
    private readonly pipeline: McpCallPipeline,
  ) {}

  @RpcMethod('completion/complete', { era: 'both' })
  async complete(call: McpCall, params: JsonObject): Promise<Result> {
    // Un-advertised capability → method not found, as the spec asks.
    if (!this.registry.hasCompletions) throw new MethodNotFoundError('completion/complete');
    return this.pipeline.call(this.completions, call, params);
  }

  /** The prompt or template a ref names, with the argument's schema if declared; -32602 when it names none. */
  private completed(ref: JsonObject, argument: string): { type: 'prompt' | 'resource'; id: string; schema?: JsonSchemaObject; listed: Listing } {
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const name = ref.name;
      const prompt = this.registry.getPrompt(name);
      if (!prompt) throw unknownPrompt(name);
      const listed = { entry: prompt, kind: McpHandlerKind.PROMPT, unknown: () => unknownPrompt(name) };
      return { type: 'prompt', id: name, schema: ownSchema(prompt.argumentSchemas, argument), listed };
    }
    if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const uri = ref.uri;
      const template = this.registry.getResourceTemplate(uri);
      const resource = template ? undefined : this.registry.getResource(uri);
      if (!template && !resource) throw new ResourceNotFoundError(uri);
      const unknown = () => new ResourceNotFoundError(uri);
      const listed: Listing = template ? { entry: template, kind: McpHandlerKind.RESOURCE_TEMPLATE, unknown } : { entry: resource!, kind: McpHandlerKind.RESOURCE, unknown };
      return { type: 'resource', id: uri, schema: template && ownSchema(template.variableSchemas, argument), listed };
    }
    throw new InvalidParamsError('completion/complete "ref" must be ref/prompt with a name or ref/resource with a uri');
  }
}

/** The arguments already filled in (`context.arguments`), strings only. */
function contextArguments(params: JsonObject): Record<string, string> {
  const context = isPlainObject(params.context) && isPlainObject(params.context.arguments) ? params.context.arguments : {};
  return Object.fromEntries(Object.entries(context).filter(([, value]) => typeof value === 'string')) as Record<string, string>;
}

/** The schema of a declared argument; a name such as `constructor` is not one. */
function ownSchema(schemas: Readonly<Record<string, JsonSchemaObject>>, name: string): JsonSchemaObject | undefined {
  return Object.hasOwn(schemas, name) ? schemas[name] : undefined;
}

/** The declared enum's values that start with what was typed, ignoring case. */
function enumValues(schema: JsonSchemaObject | undefined, typed: string): string[] {
  if (!Array.isArray(schema?.enum)) return [];
  const prefix = typed.toLowerCase();
  return schema.enum.map(String).filter((value) => value.toLowerCase().startsWith(prefix));
}
