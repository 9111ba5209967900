import 'reflect-metadata';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { connect } from 'node:net';
import { LogTranscript } from './support/log-transcript.js';
import { onFastify } from './support/http-adapter.js';
import { rpc, standardHeaders } from './support/mcp-http.js';
import { until, within } from './support/waiting.js';
import { startReliabilityApp, type ReliabilityApp } from './src/reliability-fixture.js';

/** What a client that sent part of a request saw by the time the server closed the connection. */
interface Answer {
  status: number;
  head: string;
  body: string;
}

/**
 * Opens a raw connection, writes `head` at once and then one byte of `drip` at a time, 50 ms apart, as
 * a slow client does (never idle long: only a bound on the whole request stops it), and resolves with
 * what the server answered once it closes the connection.
 */
function slowClient(port: number, head: string, drip: string): Promise<Answer> {
  return within(
    new Promise<Answer>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      const parts: Buffer[] = [];
      let sent = 0;
      const dripping = setInterval(() => {
        if (socket.writable && drip !== '') socket.write(drip[sent++ % drip.length]);
      }, 50);
      socket.on('data', (chunk: Buffer) => parts.push(chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(dripping);
        const text = Buffer.concat(parts).toString('utf8');
        const split = text.indexOf('\r\n\r\n');
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0), head: text.slice(0, split), body: text.slice(split + 4) });
      });
      socket.write(head);
    }),
    'the server to close the slow connection',
  );
}

const HEADERS = Object.entries(standardHeaders(rpc('tools/list')))
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

describe(`slow clients get a bounded wait and a JSON-RPC 408 (e2e, ${onFastify ? 'Fastify' : 'Express'})`, () => {
  let app: ReliabilityApp;
  const log = new LogTranscript();

  beforeAll(async () => {
    // Short limits, which a dripping client is sure to reach; the test waits for the server to act, never for time.
    app = await startReliabilityApp({ limits: { headersTimeout: 'PT1S', requestTimeout: 'PT3S', bodyTimeout: 'PT1S' }, logger: log });
  });
  afterAll(async () => {
    await app?.app.close();
  });
  beforeEach(() => log.clear());

  it('the module sets the server timeouts, and Node checks them often enough to answer within a tenth of the shorter one', () => {
    const server = app.app.getHttpServer();
    expect({ headers: server.headersTimeout, request: server.requestTimeout, checkedEvery: server.connectionsCheckingInterval }).toEqual({
      headers: 1_000,
      request: 3_000,
      checkedEvery: 100,
    });
  });

  it('headers sent a byte at a time → 408 with a JSON-RPC error (-32600) and the connection closed', async () => {
    const answer = await slowClient(app.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${HEADERS}`, 'X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect(answer.status).toBe(408);
    expect(answer.head).toMatch(/\r\nconnection: close/i);
    expect(answer.head).toMatch(/\r\ncontent-type: application\/json/i);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Request Timeout: the request did not arrive in time' } });
    await until(() => log.entries('answered 408').length > 0, 'the line about the slow client', () => log.text);
    expect(log.entries('answered 408').map((line) => line.level)).toEqual(['DEBUG']);
    expect(log.continuations).toEqual([]);
  });

  it('a body sent a byte at a time → 408 with a JSON-RPC error (-32600) through the adapter, and the connection closed', async () => {
    const answer = await slowClient(app.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${HEADERS}Content-Length: 100000\r\n\r\n{`, ' ');
    expect(answer.status).toBe(408);
    expect(answer.head).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Request Timeout: the body did not arrive within 1000 ms' } });
    await until(() => log.entries('answered 408').length > 0, 'the line about the slow body', () => log.text);
    expect(log.entries('answered 408').map((line) => line.level)).toEqual(['DEBUG']);
    expect(log.continuations).toEqual([]);
  });

  it('a chunked body sent a byte at a time is bounded the same way', async () => {
    const answer = await slowClient(app.port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${HEADERS}Transfer-Encoding: chunked\r\n\r\n`, '1\r\n \r\n');
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body).error.code).toBe(-32600);
  });

  it('other client errors are answered as before (400), and the server goes on serving', async () => {
    const answer = await slowClient(app.port, 'NOT HTTP AT ALL\r\n\r\n', '');
    expect(answer.status).toBe(400);
    const response = await fetch(app.url, { method: 'POST', headers: standardHeaders(rpc('tools/list')), body: JSON.stringify(rpc('tools/list')) });
    expect(response.status).toBe(200);
  });
});
