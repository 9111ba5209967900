import { Injectable } from '@nestjs/common';
import { setTimeout as delay } from 'node:timers/promises';
import { McpArg, McpTool, ToolContext, type McpToolContext } from 'nest-mcp';

/** A long-running tool: a task for clients with the tasks extension, an ordinary call for the others. */
@Injectable()
export class ReportTools {
  @McpTool({ name: 'quarterly-report', description: 'Builds the quarterly report, page by page (slow: runs as a task)', task: true })
  async quarterlyReport(
    @McpArg('pages', { description: 'How many pages to build (1-20)' }) pages: number,
    @ToolContext() ctx: McpToolContext,
  ): Promise<string> {
    // Ask before the slow part: the handler is replayed from the top once the answer arrives.
    const confirm = await ctx.elicit(`Build a ${pages}-page report? It takes about ${pages} seconds.`, (schema) =>
      schema.bool('confirmed', 'Build it'),
    );
    if (!confirm.isAccepted() || !confirm.getBool('confirmed')) return 'Report not built.';
    const progress = ctx.countingProgress(pages);
    for (let page = 1; page <= pages; page++) {
      await delay(1_000, undefined, { signal: ctx.signal }); // a cancelled task stops here
      progress.emit(`page ${page} of ${pages}`);
    }
    return `The ${pages}-page quarterly report is ready.`;
  }
}
