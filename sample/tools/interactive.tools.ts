import { Injectable } from '@nestjs/common';
import { McpArg, McpTool, ToolContext, type McpToolContext } from 'nest-mcp';
import { BillingService } from './billing.service.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Progress and elicitation, as in the interactive-features guide. */
@Injectable()
export class InteractiveTools {
  constructor(private readonly billing: BillingService) {}

  @McpTool({ name: 'process', description: 'Processes data in three steps, reporting progress' })
  async process(@McpArg('data', { description: 'The data to process' }) data: string, @ToolContext() ctx: McpToolContext) {
    const progress = ctx.longProgress(3);
    progress.emit(1, 'parsed');
    await pause(10);
    progress.emit(2, 'transformed');
    await pause(10);
    progress.emit(3, 'stored');
    return { result: `Done: processed ${data.length} characters` };
  }

  @McpTool({ name: 'onboard', description: 'Onboards a new user, asking for their details' })
  async onboard(@ToolContext() ctx: McpToolContext) {
    const answer = await ctx.elicit('Please enter your details', (schema) =>
      schema.string('name', 'Your name').string('email', 'Email address', (s) => s.email()),
    );
    if (answer.isAccepted()) return { message: `Welcome, ${answer.getString('name')}!` };
    return { message: 'Onboarding cancelled.' };
  }

  @McpTool({ name: 'upgrade-plan', description: "Upgrades the user's plan after two questions" })
  async upgradePlan(@McpArg('userId', { description: 'The user to upgrade' }) userId: string, @ToolContext() ctx: McpToolContext) {
    // Runs once per round trip: reads only, nothing with side effects before the last elicit().
    const choice = await ctx.elicit('Pick a plan', (schema) => schema.choice('plan', 'New plan', ['pro', 'team']));
    if (!choice.isAccepted()) return { upgraded: false, reason: 'cancelled' };
    const plan = choice.getChoice('plan')!;
    const confirm = await ctx.elicit(`Confirm upgrade to ${plan}?`, (schema) => schema.bool('confirmed', 'I understand the new price'));
    if (!confirm.isAccepted() || !confirm.getBool('confirmed')) return { upgraded: false, reason: 'not confirmed' };
    // After the final elicit(): runs exactly once, on the last round trip.
    this.billing.charge(userId, plan);
    return { upgraded: true, plan };
  }

  @McpTool({ name: 'wizard', description: 'A multi-step wizard mixing progress and elicitation' })
  async wizard(@ToolContext() ctx: McpToolContext) {
    const progress = ctx.longProgress(3);
    progress.emit(1, 'started');
    const step1 = await ctx.elicit('Step 1: project name?', (schema) => schema.string('project', 'Project name'));
    progress.emit(2, 'named');
    const step2 = await ctx.elicit('Step 2: language?', (schema) =>
      schema.choice('language', 'Language', [
        { value: 'ts', title: 'TypeScript' },
        { value: 'java', title: 'Java' },
      ]),
    );
    progress.emit(3, 'done');
    return { project: step1.getString('project', 'unnamed'), language: step2.getChoice('language', 'ts') };
  }
}
