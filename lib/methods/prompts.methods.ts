import { Inject, Injectable } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { PromptGetContext } from '../context/mcp-handler.context.js';
import { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import { MCP_SETTINGS } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { McpCallPipeline, type CallFamily, type CheckedArguments } from '../pipeline/call-pipeline.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { McpRegistry } from '../registry/mcp.registry.js';
import type { RegisteredPrompt } from '../registry/registered-handlers.js';
import { toGetPromptResult } from '../results/prompt-result.mapper.js';
import { toDtoInstance, validateDto } from '../schema/index.js';
import { listResult } from './pagination.js';
import { RpcMethod } from './rpc-method.decorator.js';
import { convertStringArguments } from './string-arguments.js';
import { visibleEntries } from './visible-entries.js';

/** `prompts/list` and `prompts/get`. @internal */
@Injectable()
export class PromptsMethods {
  /** prompts/get, as the call pipeline runs it. */
  private readonly gets: CallFamily<RegisteredPrompt> = {
    method: 'prompts/get',
    canAsk: true,
    context: PromptGetContext,
    find: (params) => {
      const name = params.name;
      if (typeof name !== 'string') throw new InvalidParamsError('prompts/get needs a string "name"');
      const prompt = this.registry.getPrompt(name);
      if (!prompt) throw unknownPrompt(name);
      return {
        kind: McpHandlerKind.PROMPT,
        target: name,
        entry: prompt,
        arguments: isPlainObject(params.arguments) ? params.arguments : {},
        listed: { entry: prompt, kind: McpHandlerKind.PROMPT, unknown: () => unknownPrompt(name) },
      };
    },
    // The arguments as sent: one that is not an object is refused here, after the guards.
    checkArguments: ({ entry }, params) => checkPromptArguments(entry, params.arguments),
    toResult: toGetPromptResult,
  };

  constructor(
    private readonly registry: McpRegistry,
    private readonly pipeline: McpCallPipeline,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  @RpcMethod('prompts/list', { era: 'both' })
  async list(call: McpCall, params: JsonObject): Promise<Result> {
    const prompts = await visibleEntries(call, this.registry.listPrompts(), McpHandlerKind.PROMPT);
    return listResult('prompts', prompts.map((prompt) => prompt.definition), params.cursor, this.settings);
  }

  @RpcMethod('prompts/get', { inputRounds: true, era: 'both' })
  get(call: McpCall, params: JsonObject): Promise<Result> {
    return this.pipeline.call(this.gets, call, params);
  }
}

/** An unknown prompt, and one the caller may not see (`hideWhenDenied`): the same answer (completions of its arguments too). */
export function unknownPrompt(name: string): InvalidParamsError {
  return new InvalidParamsError(`Unknown prompt: ${name}`);
}

/** Strings converted to the declared types, then the Standard Schema's validate or the DTO's class-validator rules; -32602 otherwise. */
async function checkPromptArguments(prompt: RegisteredPrompt, raw: unknown): Promise<CheckedArguments> {
  const required = new Set((prompt.definition.arguments ?? []).filter((arg) => arg.required).map((arg) => arg.name));
  const args = convertStringArguments(raw, prompt.argumentSchemas, required, 'prompts/get');
  if (prompt.argumentSchema) {
    const checked = await prompt.argumentSchema.validate(args);
    if (!checked.ok) throw new InvalidParamsError(checked.message);
    return { arguments: checked.value as JsonObject };
  }
  if (!prompt.dto) return { arguments: args };
  const dto = toDtoInstance(prompt.dto, args);
  const problem = await validateDto(dto, 'Invalid prompt arguments');
  if (problem) throw new InvalidParamsError(problem);
  return { arguments: args, dto };
}
