import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createHttpApp } from '../http-adapter.js';
import { ConformanceModule } from './conformance.module.js';

/**
 * The fixture server of the official MCP conformance suite (scripts/conformance.mjs starts it).
 * PORT and HOST come from the runner; loopback by default, as the DNS-rebinding scenario expects.
 */
async function bootstrap(): Promise<void> {
  // Warnings and errors only: the runner keeps the fixture log, and per-request noise hides real faults.
  // MCP_HTTP_ADAPTER=fastify (inherited from the runner) serves the fixture on Fastify.
  const app = await createHttpApp(ConformanceModule, { logger: ['error', 'warn'] });
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  await app.listen(port, host);
  const address = app.getHttpServer().address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  new Logger('Conformance').warn(`conformance fixture listening on http://${host}:${actualPort}/mcp (${app.getHttpAdapter().getType()})`);
}

void bootstrap();
