import { describe, expect, it } from '@jest/globals';
import type { Logger } from '@nestjs/common';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { applyServerTimeouts } from './server-timeouts.js';

/** The part of a socket the clientError listener touches. */
class FakeSocket extends EventEmitter {
  written = '';
  destroyed = false;
  writable = true;
  remoteAddress = '203.0.113.7';
  _httpMessage?: { headersSent: boolean };
  write(text: string): boolean {
    this.written += text;
    return true;
  }
  destroy(): this {
    this.destroyed = true;
    this.writable = false;
    return this;
  }
}

function setUp(connectionsCheckingInterval = 30_000) {
  const server = Object.assign(new EventEmitter(), { requestTimeout: 300_000, headersTimeout: 60_000, connectionsCheckingInterval }) as unknown as Server & {
    connectionsCheckingInterval: number;
  };
  const debug: string[] = [];
  applyServerTimeouts(server, { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 }, { debug: (line: string) => debug.push(line) } as unknown as Logger);
  return { server, debug };
}

const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });

describe('applyServerTimeouts', () => {
  it("sets Node's timeouts and checks them every second (a tenth of the shorter one, at most 1 s)", () => {
    const { server } = setUp();
    expect({ request: server.requestTimeout, headers: server.headersTimeout, every: server.connectionsCheckingInterval }).toEqual({ request: 30_000, headers: 10_000, every: 1_000 });
  });

  it('keeps a checking interval the application already made shorter', () => {
    expect(setUp(250).server.connectionsCheckingInterval).toBe(250);
  });

  it('answers a request timeout with 408 and a JSON-RPC error, closes the socket, and logs one debug line', () => {
    const { server, debug } = setUp();
    const socket = new FakeSocket();
    server.emit('clientError', timeout, socket);
    const [head, body] = socket.written.split('\r\n\r\n');
    expect(head.split('\r\n')).toEqual(['HTTP/1.1 408 Request Timeout', 'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, 'Connection: close']);
    expect(JSON.parse(body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Request Timeout: the request did not arrive in time' } });
    expect(socket.destroyed).toBe(true);
    expect(debug).toEqual([expect.stringContaining('from 203.0.113.7; answered 408')]);
  });

  it('writes nothing over a response already under way on the socket, as Node does', () => {
    const { server } = setUp();
    const socket = Object.assign(new FakeSocket(), { _httpMessage: { headersSent: true } });
    server.emit('clientError', timeout, socket);
    expect(socket.written).toBe('');
    expect(socket.destroyed).toBe(true);
  });

  it("answers other client errors as Node does when no one else listens: 400, or 431 for headers too large", () => {
    const { server } = setUp();
    const garbage = new FakeSocket();
    server.emit('clientError', Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }), garbage);
    expect(garbage.written).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    const huge = new FakeSocket();
    server.emit('clientError', Object.assign(new Error('Header overflow'), { code: 'HPE_HEADER_OVERFLOW' }), huge);
    expect(huge.written).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
    expect([garbage.destroyed, huge.destroyed]).toEqual([true, true]);
  });

  it('listens once per server, however many modules set its timeouts', () => {
    const { server } = setUp();
    applyServerTimeouts(server, { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 }, { debug: () => undefined } as unknown as Logger);
    expect(server.listenerCount('clientError')).toBe(1);
    const garbage = new FakeSocket();
    server.emit('clientError', Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }), garbage);
    expect(garbage.written).toBe('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  });

  it("leaves other client errors to the listener that was there (Fastify's, the application's), and goes first for timeouts", () => {
    const server = Object.assign(new EventEmitter(), { connectionsCheckingInterval: 30_000 }) as unknown as Server;
    const seen: string[] = [];
    server.on('clientError', (error: NodeJS.ErrnoException, socket: FakeSocket) => seen.push(`${error.code} destroyed=${socket.destroyed}`));
    applyServerTimeouts(server, { requestTimeoutMs: 30_000, headersTimeoutMs: 10_000 }, { debug: () => undefined } as unknown as Logger);
    const garbage = new FakeSocket();
    server.emit('clientError', Object.assign(new Error('Parse Error'), { code: 'HPE_INVALID_METHOD' }), garbage);
    expect(garbage.written).toBe('');
    const slow = new FakeSocket();
    server.emit('clientError', timeout, slow);
    expect(slow.written).toMatch(/^HTTP\/1\.1 408 /);
    // Fastify's own listener finds the socket already closed, and writes nothing of its own.
    expect(seen).toEqual(['HPE_INVALID_METHOD destroyed=false', 'ERR_HTTP_REQUEST_TIMEOUT destroyed=true']);
  });
});
