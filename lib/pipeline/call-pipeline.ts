import { Inject, Injectable, Logger } from '@nestjs/common';
import { principalOf } from '../auth/mcp-auth-info.js';
import type { McpCall } from '../context/mcp-call.js';
import type { AskInputs, McpHandlerContext } from '../context/mcp-handler.context.js';
import { prepareInvocation, setPreparation, type McpInvocation, type McpInvocationKind } from '../invocation/mcp-invocation.js';
import { REQUEST_STATE_SERVICES } from '../mcp.constants.js';
import { SIGNAL_SWALLOWED } from '../mcp.messages.js';
import { InputRounds, isInputRequiredSignal, TaskStartSignal, type CallRounds, type InputRoundsParams, type RequestStateServices } from '../mrtr/index.js';
import type { InputRequiredResult, JsonObject } from '../protocol/wire.types.js';

export type HandlerOutcome = { kind: 'value'; value: unknown } | { kind: 'input_required'; result: InputRequiredResult };

/** The arguments as the method receives them. */
export interface CheckedArguments {
  arguments: JsonObject;
  dto?: object;
}

/** What a method family tells the pipeline about one call: only what differs between families. */
export interface CallSpec {
  kind: McpInvocationKind;
  /** Tool name, prompt name, resource URI, or the completed prompt or template. */
  target: string;
  /** The registry entry found by the family's lookup. */
  entry: { invoke(invocation: McpInvocation): Promise<unknown>; readonly extractsParameters?: boolean };
  /** The arguments as sent. */
  rawArguments: JsonObject;
  /** Validation and conversion, as pipes would do it; throws to refuse the call. */
  checkArguments(raw: JsonObject): CheckedArguments | Promise<CheckedArguments>;
  /** The call's input rounds (MRTR); absent where a method cannot ask (completions). */
  rounds?: { method: string; arguments: unknown; params: InputRoundsParams };
  /** A task run asks through the task's own ledger instead (no requestState); wins over `rounds`. */
  taskRounds?: CallRounds;
  createContext(call: McpCall, target: string, ask: AskInputs): McpHandlerContext;
}

const CANNOT_ASK = 'This call cannot ask the user for input (elicitation is for tools, prompts and resources)';

/**
 * The one path of tools/call, prompts/get, resources/read and completion/complete after the
 * family's lookup: guards → interceptors → argument checks → input rounds → method → filters, the
 * Nest part in Nest's own order. The argument checks and the one-time requestState claim are the
 * call's *preparation*: it runs when Nest extracts the method's first MCP parameter (after the
 * guards, inside the interceptors, where pipes run), so an unauthorised caller never learns the
 * schema from a validation error and never burns a requestState. The family maps the outcome.
 */
@Injectable()
export class McpCallPipeline {
  private readonly logger = new Logger('McpModule');

  constructor(@Inject(REQUEST_STATE_SERVICES) private readonly requestState: RequestStateServices) {}

  async run(call: McpCall, spec: CallSpec): Promise<HandlerOutcome> {
    let rounds: CallRounds | undefined;
    let inputRounds: InputRounds | undefined;
    const ask: AskInputs = (requests) => {
      if (!rounds) throw new Error(CANNOT_ASK);
      return rounds.ask(requests);
    };
    const context = spec.createContext(call, spec.target, ask);
    const invocation: McpInvocation = {
      request: call.request,
      kind: spec.kind,
      name: spec.target,
      arguments: spec.rawArguments,
      context,
      httpRequest: call.httpRequest,
    };
    setPreparation(invocation, async () => {
      const checked = await spec.checkArguments(spec.rawArguments);
      invocation.arguments = checked.arguments;
      invocation.dto = checked.dto;
      if (spec.taskRounds) {
        rounds = spec.taskRounds;
        return;
      }
      if (!spec.rounds) return;
      const { method, arguments: args, params } = spec.rounds;
      inputRounds = new InputRounds(this.requestState, { method, target: spec.target, arguments: args, principal: principalOf(call.httpRequest) }, params, call.meta.clientCapabilities);
      rounds = inputRounds;
      await inputRounds.claimState();
    });
    try {
      // A method without MCP parameters has no extraction step to prepare in. It can read neither
      // its arguments nor its context, so its schema is the empty one (which a validation error
      // reveals nothing of), and it can never ask a question: prepare before the guards.
      if (!spec.entry.extractsParameters) await prepareInvocation(invocation);
      const value = await spec.entry.invoke(invocation);
      if (rounds?.pendingSignal) {
        this.logger.warn(SIGNAL_SWALLOWED(`"${spec.target}"`));
        return { kind: 'input_required', result: rounds.toInputRequiredResult(rounds.pendingSignal) };
      }
      return { kind: 'value', value };
    } catch (error) {
      if (isInputRequiredSignal(error) && rounds) {
        return { kind: 'input_required', result: rounds.toInputRequiredResult(rounds.pendingSignal ?? error) };
      }
      // The task starts with what the client answered in this call's rounds.
      if (error instanceof TaskStartSignal) throw new TaskStartSignal(inputRounds?.answeredRounds);
      throw error;
    } finally {
      context.close();
    }
  }
}
