// Started by test/stdio.e2e-spec.ts with a temporary directory as its working directory: the official
// client 2.x and the v1 SDK each start the stdio server at the absolute path given, with no `cwd` option
// (so the server inherits this process's directory, as when a desktop client starts it), and list its
// tools. Prints one JSON line: { cwd, client2: [tool names], v1: [tool names] }.
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioV1 } from '@modelcontextprotocol/sdk/client/stdio.js';

const entry = process.argv[2];

const client = new Client({ name: 'nest-mcp-no-cwd', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: { pin: '2026-07-28' } } });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [entry], stderr: 'inherit' }));
const client2 = (await client.listTools()).tools.map((tool) => tool.name);
await client.close();

const v1 = new ClientV1({ name: 'nest-mcp-no-cwd', version: '1.0.0' }, { capabilities: {} });
await v1.connect(new StdioV1({ command: process.execPath, args: [entry], stderr: 'inherit' }));
const legacy = (await v1.listTools()).tools.map((tool) => tool.name);
await v1.close();

process.stdout.write(`${JSON.stringify({ cwd: process.cwd(), client2, v1: legacy })}\n`);
