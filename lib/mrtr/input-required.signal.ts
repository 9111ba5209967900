import { IntrinsicException } from '@nestjs/common';
import type { InputRequests } from '../protocol/wire.types.js';

/**
 * Thrown by `elicit()` / `requestInputs()` when the answer is not there yet: it ends this run of
 * the handler, and the dispatcher answers `input_required`. Do not catch it (or rethrow it: see
 * `isInputRequiredSignal`). An IntrinsicException, so Nest's exception handlers do not log it.
 * @publicApi
 */
export class InputRequiredSignal extends IntrinsicException {
  /** Lets `isInputRequiredSignal` recognise signals from another copy of this package. */
  readonly mcpInputRequired = true;

  constructor(
    readonly inputRequests: InputRequests,
    readonly fingerprint: string,
  ) {
    super('Input required from the client: this is a control-flow signal of nest-mcp; rethrow it');
    this.name = 'InputRequiredSignal';
  }
}

/**
 * True for the control-flow signal of `elicit()`. Use it in a broad `catch` to rethrow:
 * `catch (e) { if (isInputRequiredSignal(e)) throw e; … }`.
 * @publicApi
 */
export function isInputRequiredSignal(error: unknown): error is InputRequiredSignal {
  return (
    error instanceof InputRequiredSignal ||
    (typeof error === 'object' && error !== null && (error as { mcpInputRequired?: unknown }).mcpInputRequired === true)
  );
}
