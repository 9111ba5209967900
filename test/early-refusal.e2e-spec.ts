import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { DRAIN_MAX_BYTES } from '../lib/transport/http/request-body.js';
import { onFastify } from './support/http-adapter.js';
import { rpc, standardHeaders, type Json } from './support/mcp-http.js';
import { JsonLines, within } from './support/waiting.js';
import { startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';

const MIB = 1024 * 1024;
const TOO_LARGE = { code: -32600, message: 'Payload Too Large: the body exceeds 1048576 bytes' };

/** A tools/list whose params carry `bytes` of padding: over the 1 MiB limit, it is refused 413. */
function padded(bytes: number): string {
  return JSON.stringify({ ...rpc('tools/list'), params: { ...rpc('tools/list').params, padding: 'x'.repeat(bytes) } });
}

const HEADERS = standardHeaders(rpc('tools/list'));
/** A POST's head as a raw client writes it, up to the framing headers. */
const HEAD = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(HEADERS)
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('')}`;
const CLIENT = fileURLToPath(new URL('./support/fetch-client.mjs', import.meta.url));

/**
 * Writes `head`, then `chunk` again and again, paying no attention to any answer (as a client does that
 * sends its whole body before reading), until the server closes the connection; resolves with what it answered.
 */
function relentless(port: number, head: string, chunk: Buffer): Promise<string> {
  return within(
    new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const parts: Buffer[] = [];
      const pump = () => {
        while (socket.writable && socket.write(chunk));
      };
      socket.on('drain', pump);
      socket.on('data', (part: Buffer) => parts.push(part));
      socket.on('error', () => undefined);
      socket.on('close', () => resolve(Buffer.concat(parts).toString('latin1')));
      socket.write(head);
      pump();
    }),
    'the server to close a connection whose refused body never ends',
  );
}

describe(`a refused body is drained so that clients still sending it read the answer (e2e, ${onFastify ? 'Fastify' : 'Express'})`, () => {
  /** Gives up on a body after 1 s: only for the stalled body, whose end is that timeout. */
  let app: ReliabilityApp;
  /**
   * Waits long for a body: a drain that completes must not race a clock on a busy machine (a 5 MiB
   * body from another process can take longer than 1 s there), and only the drain's byte bound can
   * end a refused body that never ends.
   */
  let patient: ReliabilityApp;

  beforeAll(async () => {
    // Node's own request timeout is far off in both: what ends a drain is the module's bounds.
    app = await startReliabilityApp({ limits: { bodyTimeout: 'PT1S', requestTimeout: 'PT1M' } });
    patient = await startReliabilityApp({ limits: { bodyTimeout: 'PT1M', requestTimeout: 'PT1M' } });
  });
  afterAll(async () => {
    await app?.app.close();
    await patient?.app.close();
  });

  it.each([
    ['5 MiB', false],
    ['5 MiB streamed without a declared length (chunked)', true],
  ])("Node's fetch (what the official SDKs use), in a process of its own, sending %s reads the 413 and its JSON-RPC error, 5 times out of 5", async (_case, stream) => {
    const spec = { url: patient.url, headers: HEADERS, message: rpc('tools/list'), paddingBytes: 5 * MIB, tries: 5, stream };
    const client = spawn(process.execPath, [CLIENT, JSON.stringify(spec)]);
    const tries = await new JsonLines('the fetch client', client.stdout).count(5);
    expect(tries).toEqual([1, 2, 3, 4, 5].map((attempt) => ({ attempt, status: 413, body: { jsonrpc: '2.0', error: TOO_LARGE } })));
  });

  it('once drained, the connection serves the next request (keep-alive)', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const post = (text: string) =>
      within(
        new Promise<{ status: number; reused: boolean; body: Json }>((resolve, reject) => {
          const req = httpRequest(patient.url, { method: 'POST', agent, headers: { ...HEADERS, 'content-length': String(Buffer.byteLength(text)) } }, (res) => {
            const parts: Buffer[] = [];
            res.on('data', (part: Buffer) => parts.push(part));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket, body: JSON.parse(Buffer.concat(parts).toString()) }));
          });
          req.on('error', reject);
          req.end(text);
        }),
        'the answer',
      );
    try {
      const refused = await post(padded(3 * MIB));
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 413, body: { jsonrpc: '2.0', error: TOO_LARGE } });
      const served = await post(JSON.stringify(rpc('tools/list')));
      expect({ status: served.status, reused: served.reused }).toEqual({ status: 200, reused: true });
      expect(served.body.result.tools.length).toBeGreaterThan(0);
    } finally {
      agent.destroy();
    }
  });

  it(`a body declared longer than the drain bound (${DRAIN_MAX_BYTES / MIB} MiB) is not drained: 413 with Connection: close`, async () => {
    const head = `${HEAD}Content-Length: ${DRAIN_MAX_BYTES + 1}\r\n\r\n`;
    const answer = await relentless(app.port, head, Buffer.alloc(64 * 1024, 'x'));
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/\r\nconnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ jsonrpc: '2.0', error: TOO_LARGE });
  });

  it('a refused body that never ends is drained up to the bound, then the connection is closed', async () => {
    const head = `${HEAD}Transfer-Encoding: chunked\r\n\r\n`;
    const chunk = Buffer.from(`10000\r\n${'x'.repeat(0x10000)}\r\n`);
    const answer = await relentless(patient.port, head, chunk);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ jsonrpc: '2.0', error: TOO_LARGE });
  });

  it('a refused body whose rest stops coming is drained until the body timeout, then the connection is closed', async () => {
    const text = padded(3 * MIB);
    const answer = await within(
      new Promise<string>((resolve) => {
        const socket = connect(app.port, '127.0.0.1');
        const parts: Buffer[] = [];
        socket.on('data', (part: Buffer) => parts.push(part));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(Buffer.concat(parts).toString('latin1')));
        // Declares the whole body, sends two thirds of it, then nothing more.
        socket.write(`${HEAD}Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text.slice(0, 2 * MIB)}`);
      }),
      'the server to close the stalled connection',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({ jsonrpc: '2.0', error: TOO_LARGE });
  });
});
