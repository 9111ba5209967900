import type { ElicitResponse, InputRequest, InputRequests, InputResponse, InputResponses } from '../protocol/wire.types.js';

/** One answer to one input request: an elicitation answer, or a sampling / roots result. */
export type InputAnswer = ElicitResponse | InputResponse;

/** Answers each question as it comes (`key`: its `inputRequests` key, e.g. `elicitation-1`; in the legacy era the request id). */
export type InputAnswerer = (question: InputRequest, key: string) => InputAnswer | Promise<InputAnswer>;

/**
 * How a call answers the server's questions (`input_required`): a function, or a script of answers
 * taken in order, one per question, across all rounds of the call.
 */
export type InputAnswers = InputAnswerer | readonly InputAnswer[];

/** Turns `InputAnswers` into the answerer of one call (a script is consumed by that call only). */
export function answererFor(answers: InputAnswers | undefined, call: string): InputAnswerer {
  if (typeof answers === 'function') return answers;
  if (answers === undefined) {
    return (question, key) => {
      throw new Error(`${call} asked ${describe(question, key)}, but the call has no \`answer\` option to reply with`);
    };
  }
  let next = 0;
  return (question, key) => {
    if (next >= answers.length) {
      throw new Error(`${call} asked ${describe(question, key)}, but its ${answers.length} scripted answer(s) are used up`);
    }
    return answers[next++];
  };
}

/** Asks the answerer each question of one round, in the order the server listed them. */
export async function answerRound(questions: InputRequests, answerer: InputAnswerer): Promise<InputResponses> {
  const responses: InputResponses = {};
  for (const [key, question] of Object.entries(questions)) {
    responses[key] = (await answerer(question, key)) as InputResponse;
  }
  return responses;
}

function describe(question: InputRequest, key: string): string {
  const message = question.method === 'elicitation/create' ? `: "${question.params.message}"` : '';
  return `${key} (${question.method}${message})`;
}
