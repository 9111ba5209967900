import { Module, type DynamicModule, type INestApplication, type LoggerService, type Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import { McpModule, type McpModuleOptions } from '../../lib/index.js';
import { BillingService } from '../../sample/tools/billing.service.js';
import { InteractiveTools } from '../../sample/tools/interactive.tools.js';
import { InteractiveFixtureTools } from './interactive-fixture.tools.js';

export interface InteractiveFixtureOptions {
  mrtr?: McpModuleOptions['mrtr'];
  store?: McpModuleOptions['store'];
  session?: McpModuleOptions['session'];
  /** Configuration served by a global ConfigModule (e.g. `{ mocapi: { mrtr: { secret } } }`); no .env file is read. */
  config?: Record<string, unknown>;
  /** The application logger; default: errors only. */
  logger?: LoggerService;
}

/** The sample's interactive tools plus the fixture tools, on McpModule with the given MRTR options. */
@Module({})
export class InteractiveFixtureModule {
  static forRoot(options: InteractiveFixtureOptions = {}): DynamicModule {
    return {
      module: InteractiveFixtureModule,
      imports: [
        ...(options.config ? [ConfigModule.forRoot({ isGlobal: true, ignoreEnvFile: true, load: [() => options.config!] })] : []),
        McpModule.forRoot({ name: 'interactive-fixture', version: '1.0.0', mrtr: options.mrtr, store: options.store, session: options.session }),
      ],
      providers: [InteractiveTools, BillingService, InteractiveFixtureTools],
    };
  }
}

/** Compiles and starts one app on 127.0.0.1:<ephemeral>; returns it with its MCP endpoint URL. */
export async function startInteractiveApp(options: InteractiveFixtureOptions = {}): Promise<{ app: INestApplication; url: string }> {
  return startApp(InteractiveFixtureModule.forRoot(options), options.logger);
}

/** Compiles and starts any root module (e.g. the sample's AppModule) on 127.0.0.1:<ephemeral>. */
export async function startApp(root: DynamicModule | Type, logger?: LoggerService): Promise<{ app: INestApplication; url: string }> {
  const moduleRef = await Test.createTestingModule({ imports: [root] }).compile();
  const app = moduleRef.createNestApplication({ logger: logger ?? ['error'] });
  await app.listen(0, '127.0.0.1');
  const address = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${address.port}/mcp` };
}
