import { Injectable } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { CompletionContext } from '../context/mcp-handler.context.js';
import { completionKey } from '../definitions/definition.factory.js';
import { McpCallPipeline } from '../pipeline/call-pipeline.js';
import { InvalidParamsError, MethodNotFoundError } from '../protocol/mcp.error.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { RegisteredCompletion } from '../registry/registered-handlers.js';
import { toCompleteResult } from '../results/completion-result.mapper.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, JsonSchemaObject, Result } from '../protocol/wire.types.js';

/** `completion/complete` for prompt arguments and template variables. @internal */
@Injectable()
export class CompletionMethods {
  constructor(
    private readonly registry: McpRegistry,
    private readonly pipeline: McpCallPipeline,
  ) {}

  @RpcMethod('completion/complete', { era: 'both' })
  async complete(call: McpCall, params: JsonObject): Promise<Result> {
    // Un-advertised capability → method not found, as the spec asks.
    if (!this.registry.hasCompletions) throw new MethodNotFoundError('completion/complete');
    const { ref, argument } = params;
    if (!isPlainObject(ref) || !isPlainObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
      throw new InvalidParamsError('completion/complete needs "ref" and "argument" { name, value }');
    }
    const context = isPlainObject(params.context) && isPlainObject(params.context.arguments) ? params.context.arguments : {};
    const contextArguments = Object.fromEntries(Object.entries(context).filter(([, value]) => typeof value === 'string')) as Record<string, string>;

    let id: { type: 'prompt' | 'resource'; id: string };
    let schema: JsonSchemaObject | undefined;
    if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
      const prompt = this.registry.getPrompt(ref.name);
      if (!prompt) throw new InvalidParamsError(`Unknown prompt: ${ref.name}`);
      id = { type: 'prompt', id: ref.name };
      schema = ownSchema(prompt.argumentSchemas, argument.name);
    } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
      const template = this.registry.getResourceTemplate(ref.uri);
      if (!template && !this.registry.getResource(ref.uri)) throw new InvalidParamsError('Resource not found', { uri: ref.uri });
      id = { type: 'resource', id: ref.uri };
      schema = template && ownSchema(template.variableSchemas, argument.name);
    } else {
      throw new InvalidParamsError('completion/complete "ref" must be ref/prompt with a name or ref/resource with a uri');
    }

    const source = this.registry.getCompletion(completionKey(id, argument.name));
    if (source) return toCompleteResult(await this.produce(call, source, id.id, argument.value, contextArguments), source.source);
    return toCompleteResult(enumValues(schema, argument.value));
  }

  /** Runs the completion source through the call pipeline with the real request (guards, scopes, request scope). */
  private async produce(call: McpCall, source: RegisteredCompletion, target: string, value: string, contextArguments: Record<string, string>): Promise<unknown> {
    const outcome = await this.pipeline.run(call, {
      kind: 'completion',
      target,
      entry: source,
      rawArguments: { value, context: { arguments: contextArguments } },
      checkArguments: (raw) => ({ arguments: raw }),
      createContext: (...parts) => new CompletionContext(...parts),
    });
    return outcome.kind === 'value' ? outcome.value : undefined;
  }
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
