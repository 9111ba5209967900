import { Inject, Injectable, Logger } from '@nestjs/common';
import { principalOf } from '../auth/mcp-auth-info.js';
import type { McpCall } from '../context/mcp-call.js';
import type { AskInputs, McpHandlerContext } from '../context/mcp-handler.context.js';
import type { McpHandlerKind } from '../interfaces/mcp-handler-kind.enum.js';
import { prepareNow, setPreparation, type McpInvocation, type McpInvocationKind } from '../invocation/mcp-invocation.js';
import { REQUEST_STATE_SERVICES } from '../mcp.constants.js';
import { SIGNAL_SWALLOWED } from '../mcp.messages.js';
import { InputRounds, isInputRequiredSignal, TaskStartSignal, type CallRounds, type RequestStateServices } from '../mrtr/index.js';
import { asMcpError } from '../protocol/internal-error.js';
import { andThen, type MaybePromise } from '../protocol/maybe-promise.js';
import { logSafe } from '../protocol/log-text.js';
import { isMcpError, type McpError } from '../protocol/mcp.error.js';
import { NOOP_PROGRESS_SINK, type ProgressSink } from '../progress/index.js';
import { ReplayedProgressFilter } from '../progress/replayed-progress.js';
import type { JsonObject, Result } from '../protocol/wire.types.js';
import type { Callable } from '../registry/registered-handlers.js';
import { FairShares } from '../store/fair-shares.js';
import { canSee, type Listed } from './visibility.js';

/** What a family's lookup found: the entry to call, what it is called for, and the arguments as sent. */
export interface Found<E extends Callable> {
  kind: McpInvocationKind;
  /** Tool name, prompt name, resource URI, or the completed prompt or template. */
  target: string;
  entry: E;
  /** As the client sent them: what guards and interceptors see. */
  arguments: JsonObject;
  /** The listed entry the call is about, when a list may hide it. */
  listed?: Listing;
}

/**
 * The listed entry a call is about (the entry itself; for a completion, its prompt or template), and
 * the error an unknown name gets. A caller that may not see the entry (`hideWhenDenied`) gets that
 * same error: what a list hides from it, a lookup by name does not reveal.
 */
export interface Listing {
  entry: Listed;
  kind: McpHandlerKind;
  unknown(): McpError;
}

/** The arguments as the method receives them. */
export interface CheckedArguments {
  arguments: JsonObject;
  dto?: object;
}

/**
 * What a method family (tools, prompts, resources, completions) declares once, for all its calls:
 * only what differs between them. The pipeline runs every step.
 */
export interface CallFamily<E extends Callable> {
  /** The JSON-RPC method (a requestState is bound to it). */
  method: string;
  /** Whether its methods can ask the user (input rounds, MRTR); completions cannot. */
  canAsk: boolean;
  /** The context its methods get; its progress goes to `progressSink` when given, else to the call's. */
  context: new (call: McpCall, target: string, ask: AskInputs, progressSink?: ProgressSink) => McpHandlerContext;
  /**
   * Lookup: the entry the request names, else the family's not-found error (before any guard). Only
   * the lookup: a check that only a found entry would fail comes later, after the pipeline has asked
   * whether the caller may see the entry at all.
   */
  find(params: JsonObject): Found<E>;
  /** Validation and conversion, as pipes would do them; throws to refuse the call. */
  checkArguments(found: Found<E>, params: JsonObject): CheckedArguments | Promise<CheckedArguments>;
  /** The method's value as the wire result (async when a schema library checks it). */
  toResult(value: unknown, found: Found<E>): Result | Promise<Result>;
  /** The method's failure as a wire result; without it, a failure is a JSON-RPC error, as an McpError always is. */
  toErrorResult?(error: unknown, found: Found<E>, call: McpCall): Result;
}

const CANNOT_ASK = 'This call cannot ask the user for input (elicitation is for tools, prompts and resources)';

/**
 * The one path of tools/call, prompts/get, resources/read and completion/complete:
 *
 *   lookup → guards → interceptors → argument checks → input rounds → method → filters → result or error mapping
 *
 * The family declares what differs (`CallFamily`); guards to filters run in Nest's own order, in the
 * entry's invoker. The lookup finds only what the caller may see: a `hideWhenDenied` entry its guards
 * deny is an unknown name (`find`). The argument checks and the one-time requestState claim are the call's
 * *preparation*: it runs when Nest extracts the method's first MCP parameter (after the guards,
 * inside the interceptors, where pipes run), so an unauthorised caller never learns the schema
 * from a validation error and never burns a requestState.
 */
@Injectable()
export class McpCallPipeline {
  private readonly logger = new Logger('McpModule');

  constructor(
    @Inject(REQUEST_STATE_SERVICES) private readonly requestState: RequestStateServices,
    private readonly shares: FairShares,
  ) {}

  /**
   * One call, lookup first. A task run asks through the task's own ledger (`taskRounds`), not requestState.
   * Async so that a lookup that throws (an unknown name) is this call's rejection.
   */
  async call<E extends Callable>(family: CallFamily<E>, call: McpCall, params: JsonObject, taskRounds?: CallRounds): Promise<Result> {
    return andThen(this.find(family, call, params), (found) => this.run(family, call, params, found, taskRounds));
  }

  /**
   * Lookup: the entry the request names, as far as the caller may see it. An entry whose list hides it
   * from this caller (`hideWhenDenied`, its guards denying a probe) is answered as an unknown name, with
   * the same code, message and HTTP status, before any guard runs for the call.
   */
  find<E extends Callable>(family: CallFamily<E>, call: McpCall, params: JsonObject): MaybePromise<Found<E>> {
    const found = family.find(params);
    const listed = found.listed;
    // Only a `hideWhenDenied` entry has guards to ask: the common lookup has nothing to wait for.
    if (!listed?.entry.canList) return found;
    return canSee(call, listed.entry, listed.kind).then((visible) => {
      if (!visible) throw listed.unknown();
      return found;
    });
  }

  /**
   * The steps after lookup (tools/call looks its tool up first, to know whether the call is a task):
   * guards → interceptors → argument checks → input rounds → method → filters, then the result or error
   * mapping. One async function for all of them: this runs for every call.
   */
  async run<E extends Callable>(family: CallFamily<E>, call: McpCall, params: JsonObject, found: Found<E>, taskRounds?: CallRounds): Promise<Result> {
    let rounds: CallRounds | undefined;
    let inputRounds: InputRounds | undefined;
    // A call that carries neither requestState nor inputResponses has nothing to claim or replay: its
    // rounds are made when the method first asks (most calls never do).
    let roundsOnDemand = false;
    const ask: AskInputs = (requests) => {
      if (!rounds && roundsOnDemand) rounds = inputRounds = this.inputRounds(family.method, found.target, call, params);
      if (!rounds) throw new Error(CANNOT_ASK);
      return rounds.ask(requests);
    };
    // Each round replays the method from the top: progress an earlier round sent is not sent again.
    const progress = family.canAsk && call.progressSink !== NOOP_PROGRESS_SINK
      ? new ReplayedProgressFilter(call.progressSink, (value) => rounds?.progressShownBefore(value) === true)
      : undefined;
    const context = new family.context(call, found.target, ask, progress?.sink);
    const invocation: McpInvocation = {
      request: call.request,
      kind: found.kind,
      name: found.target,
      arguments: found.arguments,
      context,
      httpRequest: call.httpRequest,
    };
    // The preparation: argument checks, then input rounds (a task's own, or requestState's). Only a
    // check or claim that waits makes it wait.
    setPreparation(invocation, () =>
      andThen(family.checkArguments(found, params), (checked) => {
        invocation.arguments = checked.arguments;
        invocation.dto = checked.dto;
        if (taskRounds) rounds = taskRounds;
        else if (family.canAsk && params.requestState == null && params.inputResponses === undefined) roundsOnDemand = true;
        else if (family.canAsk) return this.openInputRounds(family.method, found.target, call, params).then((opened) => void (rounds = inputRounds = opened));
      }),
    );
    try {
      let value: unknown;
      try {
        // A method without MCP parameters has no extraction step to prepare in. It can read neither
        // its arguments nor its context, so its schema is the empty one (which a validation error
        // reveals nothing of), and it can never ask a question: prepare before the guards.
        if (!found.entry.extractsParameters) await prepareNow(invocation);
        const invoked = found.entry.invoke(invocation);
        value = invoked instanceof Promise ? await invoked : invoked;
      } finally {
        context.close();
      }
      if (rounds?.pendingSignal) {
        this.logger.warn(SIGNAL_SWALLOWED(`"${logSafe(found.target)}"`));
        return rounds.toInputRequiredResult(rounds.pendingSignal, progress?.highest);
      }
      const result = family.toResult(value, found);
      return result instanceof Promise ? await result : result;
    } catch (error) {
      if (isInputRequiredSignal(error) && rounds) return rounds.toInputRequiredResult(rounds.pendingSignal ?? error, progress?.highest);
      // The task starts with what the client answered in this call's rounds.
      if (error instanceof TaskStartSignal) throw new TaskStartSignal(inputRounds?.answeredRounds);
      // An McpError is the answer as it is.
      if (!family.toErrorResult || isMcpError(error)) throw error;
      // Once the call's signal fired (cancelled, the client gone, timed out), a failure is what stopping
      // did: answered as the call's end, with one debug line, never a tool error logged with its stack.
      if (call.signal.aborted) throw asMcpError(this.logger, `${family.method} "${found.target}"`, call.request.id, error, call.signal);
      return family.toErrorResult(error, found, call);
    }
  }

  /** Bound to the method, the target, the arguments as sent and the user; a requestState is claimed here, once. */
  private async openInputRounds(method: string, target: string, call: McpCall, params: JsonObject): Promise<InputRounds> {
    const rounds = this.inputRounds(method, target, call, params);
    await rounds.claimState();
    return rounds;
  }

  private inputRounds(method: string, target: string, call: McpCall, params: JsonObject): InputRounds {
    const principal = principalOf(call.httpRequest);
    const claimScope = this.shares.scope('claim', this.shares.owner(call.httpRequest, principal));
    return new InputRounds(this.requestState, { method, target, arguments: params.arguments ?? {}, principal, claimScope }, params, call.meta.clientCapabilities);
  }
}
