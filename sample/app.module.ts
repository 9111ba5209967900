import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { McpModule } from 'nest-mcp';
import { BillingService } from './tools/billing.service.js';
import { InteractiveTools } from './tools/interactive.tools.js';
import { ReportTools } from './tools/report.tools.js';
import { UserTools } from './tools/user.tools.js';
import { GreetingTools } from './tools/greeting.tools.js';
import { ReviewPrompts } from './prompts/review.prompts.js';
import { DocsResources } from './resources/docs.resources.js';
import { ForecastTools } from './apps/forecast.tools.js';

@Module({
  imports: [
    // Reads .env (see .env.example): MOCAPI_MRTR_SECRET, MOCAPI_MRTR_TTL, PORT, …
    ConfigModule.forRoot({ isGlobal: true }),
    McpModule.forRoot({
      name: 'nest-mcp-sample',
      version: '0.1.0',
      title: 'nest-mcp sample server',
      instructions: 'Demo tools of nest-mcp: greetings, users, progress and elicitation.',
      // Skills (SEP-2640) from a folder beside this file (the build copies it beside the compiled one).
      skills: { directory: new URL('skills', import.meta.url) },
    }),
  ],
  providers: [GreetingTools, UserTools, InteractiveTools, ReportTools, BillingService, ReviewPrompts, DocsResources, ForecastTools],
})
export class AppModule {}
