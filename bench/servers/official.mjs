// The official SDK: @modelcontextprotocol/server's createMcpHandler (2026-07-28, stateless per request)
// behind @modelcontextprotocol/node's toNodeHandler on a plain node:http server, with its own
// Host/Origin guards, as its README shows.
import { createServer } from 'node:http';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';
import { z } from 'zod';
import { serveIpc } from './child.mjs';

const handler = createMcpHandler(
  () => {
    const server = new McpServer({ name: 'official-bench', version: '0.1.0' });
    server.registerTool(
      'echo',
      { description: 'Echoes a message back as text', inputSchema: z.object({ message: z.string().describe('What to echo') }) },
      async ({ message }) => ({ content: [{ type: 'text', text: message }] }),
    );
    return server;
  },
  { legacy: 'reject' },
);
const serve = toNodeHandler(handler);
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const server = createServer((req, res) => {
  if (!validateHost(req, res) || !validateOrigin(req, res)) return;
  if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
    res.statusCode = 404;
    return res.end();
  }
  void serve(req, res);
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => serveIpc(server.address().port));
