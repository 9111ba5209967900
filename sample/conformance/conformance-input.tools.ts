import { Injectable } from '@nestjs/common';
import { McpTool, ToolContext, type InputRequests, type McpToolContext } from 'nest-mcp';

/** The text of a sampling answer (CreateMessageResult), or a placeholder when it carries none. */
export function sampledText(response: unknown): string {
  const content = (response as { content?: unknown } | undefined)?.content;
  const first = Array.isArray(content) ? content[0] : content;
  const value = (first as { text?: unknown } | undefined)?.text;
  return typeof value === 'string' ? value : '(no text)';
}

/** How many roots a roots/list answer (ListRootsResult) holds. */
function rootCount(response: unknown): number {
  const roots = (response as { roots?: unknown } | undefined)?.roots;
  return Array.isArray(roots) ? roots.length : 0;
}

/**
 * The multi round-trip (SEP-2322 `input_required`) tools. Each handler re-runs from the top on
 * every round trip, so nothing before its last question has side effects.
 */
@Injectable()
export class ConformanceInputTools {
  @McpTool({ name: 'test_input_required_result_elicitation', description: 'Asks for the user name through an input_required elicitation' })
  async elicitation(@ToolContext() ctx: McpToolContext): Promise<string> {
    // The scenarios address this question by its key, so it is named, not numbered.
    const answer = await ctx.elicit('What is your name?', (schema) => schema.string('name', 'Your name'), { key: 'user_name' });
    return answer.isAccepted() ? `Hello, ${answer.getString('name', 'stranger')}!` : 'The user did not give a name.';
  }

  @McpTool({ name: 'test_input_required_result_sampling', description: 'Asks the client to sample an LLM through an input_required result' })
  async sampling(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answers = await ctx.requestInputs({
      capital_question: {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
          maxTokens: 100,
        },
      },
    });
    return `The model answered: ${sampledText(answers.capital_question)}`;
  }

  @McpTool({ name: 'test_input_required_result_list_roots', description: "Asks for the client's roots through an input_required result" })
  async listRoots(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answers = await ctx.requestInputs({ client_roots: { method: 'roots/list', params: {} } });
    return `Found ${rootCount(answers.client_roots)} root(s)`;
  }

  @McpTool({ name: 'test_input_required_result_request_state', description: 'Asks for a confirmation and carries requestState across the round trip' })
  async requestState(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answer = await ctx.elicit('Please confirm', (schema) => schema.bool('ok', 'Confirm'), { key: 'confirm' });
    return answer.isAccepted() && answer.getBool('ok') ? 'state-ok: confirmed' : 'state-ok: not confirmed';
  }

  @McpTool({ name: 'test_input_required_result_multiple_inputs', description: 'Asks for an elicitation, a sampling and the roots in one round' })
  async multipleInputs(@ToolContext() ctx: McpToolContext): Promise<string> {
    const answers = await ctx.requestInputs({
      user_name: {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      },
      greeting: {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }], maxTokens: 50 },
      },
      client_roots: { method: 'roots/list', params: {} },
    });
    const name = (answers.user_name as { content?: { name?: unknown } }).content?.name;
    return `Name: ${String(name)}; greeting: ${sampledText(answers.greeting)}; roots: ${rootCount(answers.client_roots)}`;
  }

  @McpTool({ name: 'test_input_required_result_multi_round', description: 'Asks two questions in two successive rounds' })
  async multiRound(@ToolContext() ctx: McpToolContext): Promise<string> {
    const step1 = await ctx.elicit('Step 1: What is your name?', (schema) => schema.string('name', 'Your name'), { key: 'step1' });
    const step2 = await ctx.elicit('Step 2: What is your favorite color?', (schema) => schema.string('color', 'Favorite color'), {
      key: 'step2',
    });
    return `${step1.getString('name', 'someone')} likes ${step2.getString('color', 'no color')}.`;
  }

  @McpTool({ name: 'test_input_required_result_tampered_state', description: 'Carries an integrity-protected requestState; a tampered one is rejected' })
  async tamperedState(@ToolContext() ctx: McpToolContext): Promise<string> {
    // The module seals requestState (AES-GCM), so a modified one fails before this handler runs again.
    const answer = await ctx.elicit('Please confirm', (schema) => schema.bool('ok', 'Confirm'), { key: 'confirm' });
    return answer.isAccepted() && answer.getBool('ok') ? 'Confirmed.' : 'Not confirmed.';
  }

  @McpTool({ name: 'test_input_required_result_capabilities', description: 'Asks only for the input kinds the client declared in this request' })
  async capabilities(@ToolContext() ctx: McpToolContext): Promise<string> {
    // Capabilities are per request (2026-07-28): ask only for what this request's client can answer.
    const caps = ctx.clientCapabilities;
    const requests: InputRequests = {};
    if (caps.elicitation) {
      requests.user_name = {
        method: 'elicitation/create',
        params: {
          mode: 'form',
          message: 'What is your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
      };
    }
    if (caps.sampling) {
      requests.capital_question = {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }], maxTokens: 100 },
      };
    }
    if (caps.roots) requests.client_roots = { method: 'roots/list', params: {} };
    if (Object.keys(requests).length === 0) return 'The client declared no input capabilities, so nothing was asked.';
    const answers = await ctx.requestInputs(requests);
    return `Received ${Object.keys(answers).length} answer(s): ${Object.keys(answers).sort().join(', ')}`;
  }
}
