// The physical limit: a bare node:http server answering POST /mcp with the same JSON-RPC bytes the
// plain Nest floor writes for `echo` (no framework, no router, no MCP checks: read, parse, write).
import { createServer } from 'node:http';
import { serveIpc } from './child.mjs';

const SERVER_META = { 'io.modelcontextprotocol/serverInfo': { name: 'nest-mcp-bench', version: '0.1.0' } };

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const json = JSON.stringify({
      jsonrpc: '2.0',
      id: body.id,
      result: { resultType: 'complete', content: [{ type: 'text', text: body.params.arguments.message }], _meta: SERVER_META },
    });
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(json) });
    res.end(json);
  });
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => serveIpc(server.address().port));
