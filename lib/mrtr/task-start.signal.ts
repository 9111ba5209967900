import { IntrinsicException } from '@nestjs/common';
import type { AnsweredRound } from './request-state.codec.js';

/**
 * Thrown by `ctx.startTask()` in the synchronous part of a task tool (`taskStart: 'explicit'`): it
 * ends that part, and the `tools/call` answers with the task, which replays the handler from the
 * top with the questions answered so far. The pipeline rethrows it carrying those answers.
 * @internal
 */
export class TaskStartSignal extends IntrinsicException {
  constructor(readonly answered: readonly AnsweredRound[] = []) {
    super('The handler started its task: this is a control-flow signal of nest-mcp; rethrow it');
    this.name = 'TaskStartSignal';
  }
}
