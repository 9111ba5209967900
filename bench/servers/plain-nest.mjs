// A plain Nest @Post() route on the same adapter (Express, or Fastify with MCP_HTTP_ADAPTER=fastify),
// answering the same JSON-RPC response nest-mcp sends for `echo` (no MCP checks, just Nest + the
// adapter's body parsing + JSON serialization).
// FLOOR_MODE=raw (the bench's floor): the route takes @Res() and writes the JSON with res.writeHead()/end(),
// as nest-mcp's transport does (on Express: no res.json ETag hashing or charset negotiation; on Fastify: a
// hijacked reply, no reply.send or onSend/onResponse hooks). Without it the route returns its object
// through res.json() / reply.send (an info row).
import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post, Res } from '@nestjs/common';
import { createApp, serveIpc } from './child.mjs';

const SERVER_META = { 'io.modelcontextprotocol/serverInfo': { name: 'nest-mcp-bench', version: '0.1.0' } };

const RAW = process.env.FLOOR_MODE === 'raw';

const reply = (body) => ({
  jsonrpc: '2.0',
  id: body.id,
  result: { resultType: 'complete', content: [{ type: 'text', text: body.params.arguments.message }], _meta: SERVER_META },
});

class EchoController {
  echo(body, res) {
    if (!RAW) return reply(body);
    const json = JSON.stringify(reply(body));
    res.hijack?.();
    const out = res.raw ?? res;
    out.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
    out.end(json);
  }
}
const proto = EchoController.prototype;
Reflect.defineMetadata('design:paramtypes', RAW ? [Object, Object] : [Object], proto, 'echo');
Body()(proto, 'echo', 0);
if (RAW) Res()(proto, 'echo', 1);
const descriptor = Object.getOwnPropertyDescriptor(proto, 'echo');
Post()(proto, 'echo', descriptor);
HttpCode(200)(proto, 'echo', descriptor);
Reflect.decorate([Controller('mcp')], EchoController);

class AppModule {}
Reflect.decorate([Module({ controllers: [EchoController] })], AppModule);

const app = await createApp(AppModule, { logger: ['error'] });
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
serveIpc(app.getHttpServer().address().port);
