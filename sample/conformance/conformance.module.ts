import { Module } from '@nestjs/common';
import { McpModule } from 'nest-mcp';
import { ConformanceInputTools } from './conformance-input.tools.js';
import { ConformanceLegacyTools } from './conformance-legacy.tools.js';
import { ConformanceLogging } from './conformance-logging.js';
import { ConformancePrompts } from './conformance.prompts.js';
import { ConformanceResources } from './conformance.resources.js';
import { ConformanceTaskTools } from './conformance-task.tools.js';
import { ConformanceTools } from './conformance.tools.js';

/**
 * Everything the conformance suite's server scenarios call, by the names and texts it expects.
 * Provider order is list order: ConformanceTools comes first so `test_simple_text` leads `tools/list`
 * (http-header-validation calls the first listed tool with `{}`).
 */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'nest-mcp-conformance',
      version: '0.1.0',
      title: 'nest-mcp conformance fixture',
      // The requestState key stays ephemeral: one fixture process serves the whole run.
      // input-required-result-ignore-extra-params answers the first question with no requestState.
      mrtr: { acceptFirstRoundWithoutState: true },
      // The sep-2640-skills-* scenarios: one skill with a subfolder (for resources/directory/read).
      // Relative to this file (the build copies the folder beside the compiled one).
      skills: { directory: 'skills' },
    }),
  ],
  providers: [
    ConformanceTools,
    ConformanceInputTools,
    ConformanceLegacyTools,
    ConformanceTaskTools,
    ConformancePrompts,
    ConformanceResources,
    ConformanceLogging,
  ],
})
export class ConformanceModule {}
