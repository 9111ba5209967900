import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { createHttpApp } from './http-adapter.js';
import { HttpAppModule } from './http-app.module.js';
import { setupTracing } from './tracing.js';

async function bootstrap(): Promise<void> {
  await setupTracing();
  // Express by default; MCP_HTTP_ADAPTER=fastify starts the same app on Fastify.
  const app = await createHttpApp(HttpAppModule);
  // SIGTERM: in-flight MCP calls finish (bounded), new ones get 503.
  app.enableShutdownHooks();
  const config = app.get(ConfigService);
  const port = Number(config.get('PORT') ?? 3000);
  // Local MCP servers should bind to loopback only (DNS-rebinding advice of the spec).
  const host = config.get<string>('HOST') ?? '127.0.0.1';
  await app.listen(port, host);
  const endpoint = config.get<string>('MOCAPI_ENDPOINT') ?? '/mcp';
  const address = app.getHttpServer().address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  new Logger('Sample').log(`MCP endpoint: http://${host}:${actualPort}${endpoint}`);
  // Served unless NODE_ENV=production; MOCAPI_PLAYGROUND=true|false forces it (see docs/guide/playground.md).
  const playground = config.get<string>('MOCAPI_PLAYGROUND');
  if (playground !== undefined ? playground === 'true' : config.get('NODE_ENV') !== 'production') {
    new Logger('Sample').log(`Playground: http://${host}:${actualPort}${endpoint.replace(/\/$/, '')}/playground`);
  }
}

void bootstrap();
