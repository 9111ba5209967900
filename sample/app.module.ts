import { Module, ValidationPipe } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { APP_PIPE } from '@nestjs/core';
import { McpModule } from 'nest-mcp';
import { BillingService } from './tools/billing.service.js';
import { InteractiveTools } from './tools/interactive.tools.js';
import { ReportTools } from './tools/report.tools.js';
import { UserTools } from './tools/user.tools.js';
import { GreetingTools } from './tools/greeting.tools.js';
import { ReviewPrompts } from './prompts/review.prompts.js';
import { DocsResources } from './resources/docs.resources.js';
import { ForecastTools } from './apps/forecast.tools.js';
import { NotesController } from './rest/notes.controller.js';

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
      // The Server Card (SEP-2127) at /mcp/server-card, named com.example/nest-mcp-sample (version and title
      // are the ones above), and the AI Catalog at /.well-known/ai-catalog.json: this app is the whole site.
      serverCard: { namespace: 'com.example', description: 'Demo tools of nest-mcp: greetings, users, reports, forecasts and skills', aiCatalog: true },
    }),
  ],
  // A REST resource whose routes are also tools (sample/rest/).
  controllers: [NotesController],
  providers: [
    GreetingTools,
    UserTools,
    InteractiveTools,
    ReportTools,
    BillingService,
    ReviewPrompts,
    DocsResources,
    ForecastTools,
    // The API's validation, for REST requests and route tools alike.
    { provide: APP_PIPE, useValue: new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true }) },
  ],
})
export class AppModule {}
