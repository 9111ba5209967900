import { InvalidParamsError } from '../protocol/mcp.error.js';
import type { ClientCapabilities, InputRequests, InputRequiredResult, InputResponses } from '../protocol/wire.types.js';
import { fingerprint } from './fingerprint.util.js';
import { InputRequiredSignal } from './input-required.signal.js';
import { requireInputCapabilities, type CallRounds } from './input-rounds.js';

/** An answered in-task round, as the task record keeps it. */
export interface TaskLedgerRound {
  fingerprint: string;
  responses: InputResponses;
}

/** The question a task run ended on, with task-unique keys. */
export interface TaskQuestion {
  fingerprint: string;
  inputRequests: InputRequests;
  /** Task key → the handler's key. */
  keys: Record<string, string>;
}

/**
 * The replay engine of one run of a task's handler: the same model as InputRounds, but the answers
 * live in the task record (the ledger) instead of a client-held requestState. Position N returns the
 * ledger's round N (after checking the question's fingerprint); the first unanswered question ends
 * the run, and the task shows it as `input_required`.
 */
export class TaskRounds implements CallRounds {
  private position = 0;
  pendingSignal: InputRequiredSignal | undefined;
  /** Set by toInputRequiredResult: what the task now waits on. */
  question: TaskQuestion | undefined;

  constructor(
    private readonly ledger: readonly TaskLedgerRound[],
    private readonly capabilities: ClientCapabilities,
  ) {}

  ask(requests: InputRequests): InputResponses {
    if (this.pendingSignal) throw this.pendingSignal;
    if (Object.keys(requests).length === 0) throw new Error('requestInputs() needs at least one input request');
    requireInputCapabilities(requests, this.capabilities);
    const position = this.position++;
    const print = fingerprint(requests);
    const replayed = this.ledger[position];
    if (replayed) {
      if (replayed.fingerprint !== print) {
        throw new InvalidParamsError(
          `The question at position ${position + 1} differs from the one answered earlier in this task: ` +
            'a task handler is replayed from the top after each answer, so it must ask the same questions in the same order',
        );
      }
      return replayed.responses;
    }
    this.pendingSignal = new InputRequiredSignal(requests, print);
    throw this.pendingSignal;
  }

  /**
   * By position, as the record keeps answers, not progress: the last run ended on the question at the
   * ledger's last position, so what this run reports before reaching it, that run wrote already.
   */
  progressShownBefore(): boolean {
    return this.position < this.ledger.length;
  }

  /**
   * Keys must be unique over the task's lifetime: a handler key already answered at an earlier
   * position gets the position appended. No requestState: the task record holds the state.
   */
  toInputRequiredResult(signal: InputRequiredSignal): InputRequiredResult {
    const used = new Set(this.ledger.flatMap((round) => Object.keys(round.responses)));
    const keys: Record<string, string> = {};
    const inputRequests: InputRequests = {};
    for (const [key, request] of Object.entries(signal.inputRequests)) {
      const taskKey = used.has(key) ? `${key}@${this.position}` : key;
      keys[taskKey] = key;
      inputRequests[taskKey] = request;
    }
    this.question = { fingerprint: signal.fingerprint, inputRequests, keys };
    return { resultType: 'input_required', inputRequests };
  }
}
