import { Inject, Injectable, Logger } from '@nestjs/common';
import type { McpCall } from '../context/mcp-call.js';
import { McpRegistry } from '../discovery/mcp.registry.js';
import { MCP_SETTINGS, REQUEST_STATE_SERVICES } from '../mcp.constants.js';
import type { McpSettings } from '../config/mcp-settings.js';
import { InputRounds, type RequestStateServices } from '../mrtr/index.js';
import { InvalidParamsError } from '../protocol/mcp.error.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import { toGetPromptResult } from '../results/prompt-result.mapper.js';
import { toDtoInstance, validateDto } from '../schema/index.js';
import { McpHandlerKind } from '../enums/mcp-handler-kind.enum.js';
import { principalOf, runHandler, visibleEntries } from './handler-run.js';
import { listResult } from './pagination.js';
import { convertStringArguments } from './string-arguments.js';

/** `prompts/list` and `prompts/get`. @internal */
@Injectable()
export class PromptsHandler {
  private readonly logger = new Logger('McpModule');

  constructor(
    private readonly registry: McpRegistry,
    @Inject(REQUEST_STATE_SERVICES) private readonly requestState: RequestStateServices,
    @Inject(MCP_SETTINGS) private readonly settings: McpSettings,
  ) {}

  async list(call: McpCall, params: JsonObject): Promise<Result> {
    const prompts = await visibleEntries(call, this.registry.listPrompts(), McpHandlerKind.PROMPT);
    return listResult('prompts', prompts.map((prompt) => prompt.definition), params.cursor, this.settings);
  }

  async get(call: McpCall, params: JsonObject): Promise<Result> {
    const name = params.name;
    if (typeof name !== 'string') throw new InvalidParamsError('prompts/get needs a string "name"');
    const prompt = this.registry.getPrompt(name);
    if (!prompt) throw new InvalidParamsError(`Unknown prompt: ${name}`);
    const required = new Set((prompt.definition.arguments ?? []).filter((arg) => arg.required).map((arg) => arg.name));
    const args = convertStringArguments(params.arguments, prompt.argumentSchemas, required, 'prompts/get');
    const rounds = new InputRounds(
      this.requestState,
      { method: 'prompts/get', target: name, arguments: params.arguments ?? {}, principal: principalOf(call) },
      params,
      call.meta.clientCapabilities,
    );
    let dto: object | undefined;
    if (prompt.dto) {
      dto = toDtoInstance(prompt.dto, args);
      const problem = await validateDto(dto, 'Invalid prompt arguments');
      if (problem) throw new InvalidParamsError(problem);
    }
    const outcome = await runHandler(call, rounds, name, this.logger, (context) =>
      prompt.invoke({ request: call.request, kind: McpHandlerKind.PROMPT, name, arguments: args, dto, context, httpRequest: call.httpRequest }),
    );
    return outcome.kind === 'value' ? toGetPromptResult(outcome.value) : outcome.result;
  }
}
