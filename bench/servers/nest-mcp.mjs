// nest-mcp under test (the module: nest-mcp.module.mjs), on a real port for the load generator.
import { AppModule } from './nest-mcp.module.mjs';
import { createApp, serveIpc } from './child.mjs';

// Express, or Fastify with MCP_HTTP_ADAPTER=fastify: the module is the same.
const app = await createApp(AppModule, { logger: ['error'] });
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
serveIpc(app.getHttpServer().address().port);
