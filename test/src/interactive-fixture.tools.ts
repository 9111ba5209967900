import { Injectable } from '@nestjs/common';
import { isInputRequiredSignal, McpArg, McpTool, ToolContext, type McpToolContext } from '../../lib/index.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the slow-progress tool observed; read by the disconnect test. */
export const slowState = {
  entered: 0,
  emitted: 0,
  /** `emitted` when the signal fired: a tool that stops on abort emits nothing after it. */
  emittedAtAbort: -1,
  abortEvents: 0,
  sawAborted: false,
  finished: false,
};

/** Errors recorded by the detached elicit() of `late-elicit`. */
export const lateState: { errors: string[]; returned: number } = { errors: [], returned: 0 };

/** Handler entries and how far each run got, per tool, for the requestState tests. */
export const runState = {
  guardedEntries: 0,
  guardedPastFirst: 0,
  guardedCompleted: 0,
  twinEntries: 0,
  drifterEntries: 0,
  drifterPastFirst: 0,
  swallowEntries: 0,
};

/** What `watched-question` saw: how many runs, and whether the call's signal fired (client gone). */
export const watchState = { runs: 0, aborted: 0 };

/** Tools that exercise progress and elicitation edge cases over real HTTP. */
@Injectable()
export class InteractiveFixtureTools {
  @McpTool({ name: 'count-up', description: 'Counting progress 1, 2, 3 of 3' })
  countUp(@ToolContext() ctx: McpToolContext) {
    const progress = ctx.countingProgress(3);
    progress.emit('first');
    progress.emit('second');
    progress.emit('third');
    return 'counted';
  }

  @McpTool({ name: 'long-up', description: 'Long progress 10, 40, 100 of 100' })
  longUp(@ToolContext() ctx: McpToolContext) {
    const progress = ctx.longProgress(100);
    progress.emit(10, 'ten');
    progress.emit(40);
    progress.emit(100, 'all');
    return 'long done';
  }

  @McpTool({ name: 'double-up', description: 'Double progress with unknown total' })
  doubleUp(@ToolContext() ctx: McpToolContext) {
    const progress = ctx.doubleProgress(null);
    progress.emit(0.5, 'half a unit');
    progress.emit(2.25, 'more');
    return 'double done';
  }

  @McpTool({ name: 'percent-up', description: 'Percent progress 0.25, 1 of 1' })
  percentUp(@ToolContext() ctx: McpToolContext) {
    const progress = ctx.percentProgress();
    progress.complete(0.25, 'a quarter');
    progress.complete(1, 'finished');
    return 'percent done';
  }

  @McpTool({ name: 'backwards', description: 'Progress that goes backwards' })
  backwards(@ToolContext() ctx: McpToolContext) {
    const progress = ctx.longProgress(10);
    progress.emit(5, 'five');
    progress.emit(5, 'five again');
    return 'should not get here';
  }

  @McpTool({ name: 'slow-progress', description: 'Emits progress every 50 ms until aborted' })
  async slowProgress(@ToolContext() ctx: McpToolContext) {
    slowState.entered++;
    ctx.signal.addEventListener('abort', () => {
      slowState.abortEvents++;
      slowState.emittedAtAbort = slowState.emitted;
    });
    const progress = ctx.countingProgress(100);
    for (let i = 0; i < 100; i++) {
      if (ctx.signal.aborted) {
        slowState.sawAborted = true;
        break;
      }
      progress.emit(`tick ${i + 1}`);
      slowState.emitted++;
      await pause(50);
    }
    slowState.finished = true;
    return 'slow done';
  }

  @McpTool({ name: 'multi-input', description: 'Asks for an elicitation, a sampling and the roots in one round' })
  async multiInput(@ToolContext() ctx: McpToolContext) {
    const answers = await ctx.requestInputs({
      github_login: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'Please provide your GitHub username',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      capital_of_france: {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        },
      },
      client_roots: { method: 'roots/list', params: {} },
    });
    return { answers };
  }

  @McpTool({ name: 'ask-model', description: 'Asks the client model (sampling) only' })
  async askModel(@ToolContext() ctx: McpToolContext) {
    const answers = await ctx.requestInputs({
      capital: {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Capital of Italy?' } }], maxTokens: 10 },
      },
    });
    return { answers };
  }

  @McpTool({ name: 'late-elicit', description: 'Starts a detached elicit() and returns' })
  lateElicit(@ToolContext() ctx: McpToolContext) {
    setTimeout(() => {
      ctx.elicit('Too late?', (schema) => schema.string('x', 'X')).catch((error: unknown) => {
        lateState.errors.push(error instanceof Error ? error.message : String(error));
      });
    }, 30);
    lateState.returned++;
    return 'returned early';
  }

  @McpTool({ name: 'swallow', description: 'Wraps elicit() in a broad try/catch (the WRONG pattern)' })
  async swallow(@ToolContext() ctx: McpToolContext) {
    runState.swallowEntries++;
    try {
      const answer = await ctx.elicit('Your name?', (schema) => schema.string('name', 'Name'));
      return `hello ${answer.getString('name')}`;
    } catch {
      return 'swallowed the signal';
    }
  }

  @McpTool({ name: 'rethrow', description: 'Wraps elicit() in try/catch and rethrows the signal (the RIGHT pattern)' })
  async rethrow(@ToolContext() ctx: McpToolContext) {
    try {
      const answer = await ctx.elicit('Your name?', (schema) => schema.string('name', 'Name'));
      return `hello ${answer.getString('name')}`;
    } catch (error) {
      if (isInputRequiredSignal(error)) throw error;
      return 'caught something else';
    }
  }

  @McpTool({ name: 'keyed', description: 'Asks under the explicit key user_name' })
  async keyed(@ToolContext() ctx: McpToolContext) {
    const answer = await ctx.elicit('What is your name?', (schema) => schema.string('name', 'Name'), { key: 'user_name' });
    return answer.isAccepted() ? `name=${answer.getString('name')}` : `action=${answer.action}`;
  }

  @McpTool({ name: 'guarded', description: 'Two questions; counts how far each run gets' })
  async guarded(@McpArg('x', { description: 'any text' }) x: string, @ToolContext() ctx: McpToolContext) {
    runState.guardedEntries++;
    const first = await ctx.elicit('First question', (schema) => schema.string('a', 'A'));
    runState.guardedPastFirst++;
    const second = await ctx.elicit('Second question', (schema) => schema.string('b', 'B'));
    runState.guardedCompleted++;
    return { x, a: first.getString('a'), b: second.getString('b') };
  }

  @McpTool({ name: 'guarded-twin', description: 'Same shape as guarded, another name' })
  async guardedTwin(@McpArg('x', { description: 'any text' }) x: string, @ToolContext() ctx: McpToolContext) {
    runState.twinEntries++;
    const first = await ctx.elicit('First question', (schema) => schema.string('a', 'A'));
    return { x, a: first.getString('a') };
  }

  @McpTool({ name: 'drifter', description: 'Asks a question that changes on every run (breaks the idempotency contract)' })
  async drifter(@ToolContext() ctx: McpToolContext) {
    runState.drifterEntries++;
    const answer = await ctx.elicit(`Question number ${runState.drifterEntries}`, (schema) => schema.string('a', 'A'));
    runState.drifterPastFirst++;
    return answer.getString('a');
  }

  @McpTool({ name: 'watched-question', description: 'Asks one question and records whether its call was aborted' })
  async watchedQuestion(@ToolContext() ctx: McpToolContext) {
    watchState.runs++;
    ctx.signal.addEventListener('abort', () => watchState.aborted++, { once: true });
    const answer = await ctx.elicit('Still there?', (schema) => schema.bool('here', 'I am here'));
    return { here: answer.getBool('here') };
  }
}
