import { InvalidParamsError, MissingRequiredClientCapabilityError } from '../protocol/mcp.error.js';
import { isPlainObject } from '../protocol/json-value.js';
import type {
  ClientCapabilities,
  InputRequest,
  InputRequests,
  InputRequiredResult,
  InputResponses,
  JsonObject,
} from '../protocol/wire.types.js';
import { validateElicitResponse } from '../elicitation/elicit-response.validator.js';
import type { McpRecordScope, McpStore } from '../store/mcp-store.js';
import { mayHaveForgotten } from '../store/remembers-since.js';
import { callStore } from '../store/store-call.js';
import { digestArguments, fingerprint } from './fingerprint.util.js';
import { InputRequiredSignal } from './input-required.signal.js';
import type { AnsweredRound, RequestStateCodec, RequestStatePayload } from './request-state.codec.js';

/** What identifies the call a `requestState` belongs to. */
export interface InputRoundsTarget {
  method: string;
  target: string;
  arguments: unknown;
  /**
   * Who asked (the verified token's subject, when the server authenticates): the spec requires
   * elicitations to be bound to the user, so another user's requestState is refused.
   */
  principal?: string;
  /** What the round's one-time claim counts against (the caller's share); by default the claims budget alone. */
  claimScope?: McpRecordScope;
}

/** What InputRounds reads, seals and claims requestState with. */
export interface RequestStateServices {
  codec: RequestStateCodec;
  /** Where each requestState id is claimed, once. */
  store: McpStore;
  /**
   * Take answers to the first question from a request without requestState (as the official
   * conformance suite sends them). Off: answers count only for questions the server asked.
   */
  acceptFirstRoundWithoutState?: boolean;
}

/** What the call pipeline asks questions through: InputRounds (requestState) or a task's TaskRounds. */
export interface CallRounds {
  ask(requests: InputRequests): InputResponses;
  /** Set when a question went unanswered; survives a handler that swallows the signal. */
  readonly pendingSignal: InputRequiredSignal | undefined;
  /** Whether the client was shown `progress` in an earlier round of the call (a replayed run reports it again). */
  progressShownBefore(progress: number): boolean;
  /** `progressShown`: the highest progress value this run sent, which the next round must not send again. */
  toInputRequiredResult(signal: InputRequiredSignal, progressShown?: number): InputRequiredResult;
}

/** The MRTR fields of a retried request. */
export interface InputRoundsParams {
  inputResponses?: unknown;
  requestState?: unknown;
}

export const REQUEST_STATE_REUSED = 'requestState was already used: start the call over without requestState';
/** A requestState sealed before the store may have lost its claims: whether it was spent is unknown. */
export const REQUEST_STATE_FORGOTTEN =
  "requestState was issued before the server's store restarted or failed over (it may have lost which rounds were used): start the call over without requestState";

const IDEMPOTENCY_HINT =
  'The handler must ask the same questions, in the same order, on every run up to its last elicit(): ' +
  'code before the last elicit() is replayed on each round trip. Start the call over without requestState.';

/**
 * The replay engine of one handler run. Position N of `ask()` returns the answers recorded for
 * position N in `requestState` (after checking the question's fingerprint), takes fresh answers for
 * the outstanding round from `inputResponses`, or throws the `InputRequiredSignal` that ends the run.
 */
export class InputRounds implements CallRounds {
  private readonly state: RequestStatePayload | undefined;
  private readonly responses: JsonObject | undefined;
  private digest: string | undefined;
  private readonly answered: AnsweredRound[] = [];
  private position = 0;
  /** Set when a question went unanswered; survives a handler that swallows the signal. */
  pendingSignal: InputRequiredSignal | undefined;

  constructor(
    private readonly services: RequestStateServices,
    private readonly call: InputRoundsTarget,
    params: InputRoundsParams,
    private readonly capabilities: ClientCapabilities,
  ) {
    this.responses = isPlainObject(params.inputResponses) ? params.inputResponses : undefined;
    if (params.requestState !== undefined && params.requestState !== null) {
      const state = services.codec.decode(params.requestState as string);
      if (state.method !== call.method || state.target !== call.target) {
        throw new InvalidParamsError(
          `requestState was issued for ${state.method} "${state.target}", not for ${call.method} "${call.target}"; start the call over without requestState`,
        );
      }
      if (state.argsDigest !== this.argsDigest) {
        throw new InvalidParamsError(
          'requestState was issued for other arguments (or to another user); retry with the original arguments, or start over without requestState',
        );
      }
      this.state = state;
    }
  }

  /**
   * Accepts the requestState once (the spec leaves one-time use to the server): a replayed round,
   * here or on any instance sharing the store, is -32602. Call before the handler runs. A store with
   * no room for the claim, or a caller holding its share of claims, refuses the round (-31503 or
   * -31429, retryable): the token stays unspent, and a spent one is still refused as spent (the claim
   * is kept until the token expires, never evicted). A token issued before the store may have lost
   * its claims (McpStore.remembersSince) is refused too (-32602): whether it was spent is unknown, so
   * it is taken as spent.
   */
  async claimState(): Promise<void> {
    const state = this.state;
    if (!state) return;
    const forgotten = await callStore('tell since when it holds every claim', async () => mayHaveForgotten(this.services.store, state.issuedAt));
    if (forgotten) throw new InvalidParamsError(REQUEST_STATE_FORGOTTEN);
    const ttlMs = this.services.codec.remainingTtlMs(state);
    const first = await callStore('claim a requestState', () => this.services.store.claimOnce(`request-state:${state.id}`, ttlMs, this.call.claimScope ?? { kind: 'claim' }));
    if (!first) throw new InvalidParamsError(REQUEST_STATE_REUSED);
  }

  /** The rounds answered in this run, replayed or fresh (a task started mid-call keeps them). */
  get answeredRounds(): readonly AnsweredRound[] {
    return this.answered;
  }

  /** Hashed only when a requestState is read or written: most calls never elicit. */
  private get argsDigest(): string {
    const { arguments: args, principal } = this.call;
    return (this.digest ??= digestArguments(principal === undefined ? args : { args, principal }));
  }


  /** Asks for every input in `requests` at the next position; resolves with the answers by key. */
  ask(requests: InputRequests): InputResponses {
    if (this.pendingSignal) {
      // A second question after an unanswered one: the first one is what the client must answer.
      throw this.pendingSignal;
    }
    const keys = Object.keys(requests);
    if (keys.length === 0) throw new Error('requestInputs() needs at least one input request');
    requireInputCapabilities(requests, this.capabilities);
    const position = this.position++;
    const print = fingerprint(requests);

    const replayed = this.state?.rounds[position];
    if (replayed) {
      if (replayed.fingerprint !== print) {
        throw new InvalidParamsError(`The question at position ${position + 1} differs from the one answered earlier. ${IDEMPOTENCY_HINT}`);
      }
      this.answered.push(replayed);
      return replayed.responses as InputResponses;
    }

    const pending = this.state?.pending;
    if (this.state && pending && position === this.state.rounds.length && pending.fingerprint !== print) {
      throw new InvalidParamsError(`The question at position ${position + 1} differs from the one the client answered. ${IDEMPOTENCY_HINT}`);
    }
    const fresh = this.mayAnswer(position) ? this.takeResponses(requests, keys) : undefined;
    if (fresh) {
      this.answered.push({ fingerprint: print, responses: fresh });
      return fresh;
    }
    this.pendingSignal = new InputRequiredSignal(requests, print);
    throw this.pendingSignal;
  }

  /** Progress up to the highest value the requestState says was sent: what the earlier rounds showed. */
  progressShownBefore(progress: number): boolean {
    const shown = this.state?.progressShown;
    return shown !== undefined && progress <= shown;
  }

  /**
   * The `input_required` result for the outstanding signal, with a fresh, encrypted requestState. It marks
   * the higher of what earlier rounds showed and what this run sent as progress shown.
   */
  toInputRequiredResult(signal: InputRequiredSignal, progressShown?: number): InputRequiredResult {
    const earlier = this.state?.progressShown;
    const requestState = this.services.codec.encode({
      method: this.call.method,
      target: this.call.target,
      argsDigest: this.argsDigest,
      rounds: this.answered,
      pending: { fingerprint: signal.fingerprint, keys: Object.keys(signal.inputRequests) },
      progressShown: earlier === undefined || progressShown === undefined ? (progressShown ?? earlier) : Math.max(earlier, progressShown),
    });
    return { resultType: 'input_required', inputRequests: signal.inputRequests, requestState };
  }

  /**
   * Fresh answers count only for the question the server asked last, sealed as `pending` in the
   * requestState; without one, predictable keys could answer questions never shown to the user.
   */
  private mayAnswer(position: number): boolean {
    if (!this.state) return position === 0 && this.services.acceptFirstRoundWithoutState === true;
    return this.state.pending !== undefined && position === this.state.rounds.length;
  }

  /** Fresh answers for all keys, or undefined when any is missing or malformed (then we ask again). */
  private takeResponses(requests: InputRequests, keys: string[]): InputResponses | undefined {
    if (!this.responses) return undefined;
    const taken: InputResponses = {};
    for (const key of keys) {
      const response = this.responses[key];
      if (!isValidResponse(requests[key], response)) return undefined;
      taken[key] = response as JsonObject;
    }
    return taken;
  }
}

/** -32021 naming what the client lacks when it did not declare the capability an input request needs. */
export function requireInputCapabilities(requests: InputRequests, caps: ClientCapabilities): void {
  const missing: ClientCapabilities = {};
  for (const request of Object.values(requests)) {
    switch (request.method) {
      case 'elicitation/create': {
        const elicitation = isPlainObject(caps.elicitation) ? caps.elicitation : undefined;
        const mode = request.params.mode ?? 'form';
        // `elicitation: {}` means form mode only (backward compatibility of 2025-11-25).
        const supported =
          elicitation !== undefined &&
          (mode === 'url'
            ? elicitation.url !== undefined
            : elicitation.form !== undefined || elicitation.url === undefined);
        if (!supported) missing.elicitation = mode === 'url' ? { url: {} } : {};
        break;
      }
      case 'sampling/createMessage':
        if (!isPlainObject(caps.sampling)) missing.sampling = {};
        break;
      case 'roots/list':
        if (!isPlainObject(caps.roots)) missing.roots = {};
        break;
      default:
        throw new Error(`Unknown input request method "${(request as InputRequest).method}"`);
    }
  }
  if (Object.keys(missing).length > 0) throw new MissingRequiredClientCapabilityError(missing);
}

/** Shape checks of the three InputResponse kinds; a failed check means "ask again". */
export function isValidResponse(request: InputRequest, response: unknown): boolean {
  if (!isPlainObject(response)) return false;
  switch (request.method) {
    case 'elicitation/create': {
      const params = request.params;
      if (params.mode === 'url') return ['accept', 'decline', 'cancel'].includes(response.action as string);
      return validateElicitResponse(response, params.requestedSchema).ok;
    }
    case 'sampling/createMessage':
      return (
        (response.role === 'assistant' || response.role === 'user') &&
        (isPlainObject(response.content) || Array.isArray(response.content)) &&
        typeof response.model === 'string'
      );
    case 'roots/list':
      return Array.isArray(response.roots) && response.roots.every((root) => isPlainObject(root) && typeof root.uri === 'string');
  }
}
