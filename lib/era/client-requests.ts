import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { ClientResponse } from '../protocol/json-rpc-envelope.js';
import { logSafe } from '../protocol/log-text.js';
import { McpError, McpServerErrorCode } from '../protocol/mcp.error.js';
import { JsonRpcErrorCode } from '../protocol/protocol.constants.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonObject, JsonRpcErrorObject, JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/wire.types.js';
import { scopedRequestKey } from '../dispatch/in-flight-requests.js';

/** How one server→client request is sent and how long its answer is awaited. */
export interface ClientRequestOptions {
  /** The session (or pipe) the request belongs to: only a response of the same scope can answer it. */
  scope: string;
  /** Writes the request (or its cancellation) where the client reads it: the call's SSE stream, the stdio pipe. */
  send(message: JsonRpcRequest | JsonRpcNotification): void;
  /** Fires when the call ends first (the client went away, the call timed out). */
  signal: AbortSignal;
  timeoutMs: number;
}

interface Pending {
  method: string;
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

/** The client did not answer a server→client request within `mocapi.session.input-timeout`. @publicApi */
export class ClientAnswerTimeoutError extends McpError {
  constructor(method: string, ms: number) {
    super(McpServerErrorCode.RequestTimeout, `The client did not answer ${method} within ${ms} ms (mocapi.session.input-timeout)`);
  }
}

/** The client answered a server→client request with a JSON-RPC error (e.g. the user rejected sampling). @publicApi */
export class ClientAnswerError extends McpError {
  constructor(method: string, error: JsonRpcErrorObject) {
    super(JsonRpcErrorCode.InvalidRequest, `The client answered ${method} with error ${error.code}: ${error.message}`, { clientError: error });
  }
}

/**
 * The server→client requests of 2025 sessions that await their answer (elicitation/create,
 * sampling/createMessage, roots/list), keyed by scope and id. Ids are random UUIDs, so they never
 * meet a client's own ids and cannot be guessed; the scope (the sealed session's inner id) keeps a
 * response posted in one session from ever answering a request of another.
 */
export class ClientRequests {
  private readonly pending = new Map<string, Pending>();
  /** What the client did (no answer in time, an error for an answer) is its own doing: one debug line. */
  private readonly logger = new Logger('McpModule');

  /** How many answers are awaited (all sessions): what a leak would show. */
  get size(): number {
    return this.pending.size;
  }

  /**
   * Sends `method` to the client and resolves with its result; rejects when the client answers with
   * an error, when the wait limit passes (the client is then sent `notifications/cancelled`), or
   * when the call's signal fires first. The entry is gone in every case.
   */
  request(method: string, params: JsonObject, options: ClientRequestOptions): Promise<JsonObject> {
    const { scope, send, signal, timeoutMs } = options;
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    const id = randomUUID();
    const key = scopedRequestKey(scope, id);
    return new Promise<JsonObject>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.pending.delete(key);
      };
      const onAbort = () => {
        settle();
        reject(signal.reason as Error);
      };
      const timer = setTimeout(() => {
        settle();
        send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'The server stopped waiting for the answer' } });
        this.logger.debug(`The client did not answer ${method} within ${timeoutMs} ms; its call ends with a timeout`);
        reject(new ClientAnswerTimeoutError(method, timeoutMs));
      }, timeoutMs);
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, {
        method,
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Routes a posted response to the request awaiting it; false when none in this scope has its id. */
  answer(scope: string, response: ClientResponse): boolean {
    if (typeof response.id !== 'string') return false;
    const key = scopedRequestKey(scope, response.id);
    const pending = this.pending.get(key);
    if (!pending) return false;
    const method = pending.method;
    if (isPlainObject(response.error)) {
      const { code, message } = response.error;
      this.logger.debug(`The client answered ${method} with an error (${logSafe(code)}: ${logSafe(message)})`);
      pending.reject(new ClientAnswerError(method, { code: typeof code === 'number' ? code : JsonRpcErrorCode.InternalError, message: typeof message === 'string' ? message : 'no message' }));
    } else if (isPlainObject(response.result)) {
      pending.resolve(response.result);
    } else {
      pending.reject(new ClientAnswerError(method, { code: JsonRpcErrorCode.InvalidRequest, message: 'the response has no result object' }));
    }
    return true;
  }
}
