// @rekog/mcp-nest 2.x: McpStrategy + StreamableHttpTransport in its default stateless mode, in a Nest 12
// express app. Its modern (2026-07-28) leg is the official SDK's createMcpHandler under the hood.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { z } from 'zod';
import { serveIpc } from './child.mjs';

class EchoTools {
  echo({ message }) {
    return { content: [{ type: 'text', text: message }] };
  }
}
const proto = EchoTools.prototype;
Reflect.defineMetadata('design:paramtypes', [Object], proto, 'echo');
Payload()(proto, 'echo', 0);
const descriptor = Object.getOwnPropertyDescriptor(proto, 'echo');
Tool({ name: 'echo', description: 'Echoes a message back as text', parameters: z.object({ message: z.string().describe('What to echo') }) })(
  proto,
  'echo',
  descriptor,
);
Object.defineProperty(proto, 'echo', descriptor);
Reflect.decorate([McpController()], EchoTools);

const mcp = new McpStrategy({
  name: 'rekog-bench',
  version: '0.1.0',
  transports: [new StreamableHttpTransport({ statefulMode: false })],
});

class AppModule {}
Reflect.decorate([Module({ controllers: [EchoTools] })], AppModule);

const app = await NestFactory.create(AppModule, { logger: ['error'] });
mcp.setHttpAdapter(app.getHttpAdapter());
app.connectMicroservice({ strategy: mcp });
await app.startAllMicroservices();
await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
serveIpc(app.getHttpServer().address().port);
