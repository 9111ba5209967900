import { Injectable } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { CompletionContext } from '../context/mcp-handler.context.js';
import { completionKey } from '../definitions/definition.factory.js';
import { McpCallPipeline, type CallFamily } from '../pipeline/call-pipeline.js';
import { InvalidParamsError, MethodNotFoundError } from '../protocol/mcp.error.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { Callable } from '../registry/registered-handlers.js';
import { toCompleteResult } from '../results/completion-result.mapper.js';
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
  private completed(ref: JsonObject, argument: string): { type: 'prompt' | 'resource'; id: string; schema?: JsonSchemaObject } {
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const prompt = this.registry.getPrompt(ref.name);
      if (!prompt) throw new InvalidParamsError(`Unknown prompt: ${ref.name}`);
      return { type: 'prompt', id: ref.name, schema: ownSchema(prompt.argumentSchemas, argument) };
    }
    if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const template = this.registry.getResourceTemplate(ref.uri);
      if (!template && !this.registry.getResource(ref.uri)) throw new InvalidParamsError('Resource not found', { uri: ref.uri });
      return { type: 'resource', id: ref.uri, schema: template && ownSchema(template.variableSchemas, argument) };
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
