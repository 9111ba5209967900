import { randomUUID } from 'node:crypto';
import { BusUnavailableError } from '../bus/bus-unavailable.error.js';
import { publishIfPossible, publishOnBus } from '../bus/bus-call.js';
import type { McpBus, McpBusUnsubscribe } from '../bus/mcp-bus.js';
import type { ClientResponse } from '../protocol/json-rpc-envelope.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { JsonValue } from '../protocol/wire.types.js';
import type { ClientRequests } from './client-requests.js';

/**
 * How long an answer posted here waits for the instances to say whether one of them delivered it.
 * A reply is one pub/sub hop each way (well under a millisecond on a LAN); the bound is for an
 * instance that received the answer but stopped (killed) or stalls, as Redis's own command bound.
 */
export const ANSWER_RECEIPT_WAIT_MS = 2_000;

const ANSWERS = 'answers';
const receiptsOf = (instance: string) => `answer-receipts:${instance}`;

interface PendingReceipt {
  /** Replies expected, one per other instance that received the answer: known once the publish returns. */
  expected?: number;
  /** "Not here" replies so far (they may come before the publish returns). */
  refusals: number;
  settle(delivered: boolean | 'unknown'): void;
}

/**
 * Carries a 2025 client's answer (a separate POST) to the instance whose call awaits it, so no
 * sticky routing is needed. Tried here first; otherwise published to every instance, each of
 * which hands it to its `ClientRequests` (same sealed-session scope, same question id) and replies
 * whether it did. The poster learns the truth: delivered (202), delivered nowhere (400), or, when
 * an instance does not reply within ANSWER_RECEIPT_WAIT_MS or the bus is unreachable, -31503.
 * @internal
 */
export class AnswerRelay {
  private readonly instance = randomUUID();
  private readonly receipts = new Map<string, PendingReceipt>();
  private readonly subscriptions: McpBusUnsubscribe[] = [];

  constructor(
    private readonly requests: ClientRequests,
    private readonly bus: McpBus,
  ) {}

  /** Subscribes to the answers of other instances and to the receipts for this one's. */
  async listen(): Promise<void> {
    this.subscriptions.push(
      await this.bus.subscribe(ANSWERS, (message) => this.onAnswer(message)),
      await this.bus.subscribe(receiptsOf(this.instance), (message) => this.onReceipt(message)),
    );
  }

  async stop(): Promise<void> {
    for (const unsubscribe of this.subscriptions.splice(0)) await unsubscribe().catch(() => undefined);
    for (const receipt of this.receipts.values()) receipt.settle('unknown');
  }

  /** Hands `response` (posted in session `scope`) to the call awaiting it on any instance; false when none does. */
  async deliver(scope: string, response: ClientResponse): Promise<boolean> {
    if (this.requests.answer(scope, response)) return true;
    // The server's question ids are strings (UUIDs): anything else awaits nowhere.
    if (typeof response.id !== 'string') return false;
    const ticket = randomUUID();
    let settle!: (delivered: boolean | 'unknown') => void;
    const outcome = new Promise<boolean | 'unknown'>((resolve) => (settle = resolve));
    const timer = setTimeout(() => settle('unknown'), ANSWER_RECEIPT_WAIT_MS);
    const receipt: PendingReceipt = { refusals: 0, settle };
    this.receipts.set(ticket, receipt);
    try {
      const receivers = await publishOnBus(this.bus, ANSWERS, { from: this.instance, ticket, scope, response: response as unknown as JsonValue });
      // This instance received it too, and does not reply to itself.
      receipt.expected = receivers - 1;
      if (receipt.refusals >= receipt.expected) settle(false);
      const delivered = await outcome;
      if (delivered === 'unknown') throw new BusUnavailableError();
      return delivered;
    } finally {
      clearTimeout(timer);
      this.receipts.delete(ticket);
    }
  }

  private onAnswer(message: JsonValue): void {
    if (!isPlainObject(message) || message.from === this.instance) return;
    const { from, ticket, scope, response } = message;
    if (typeof from !== 'string' || typeof ticket !== 'string' || typeof scope !== 'string' || !isPlainObject(response)) return;
    const delivered = this.requests.answer(scope, response as unknown as ClientResponse);
    publishIfPossible(this.bus, receiptsOf(from), { ticket, delivered });
  }

  private onReceipt(message: JsonValue): void {
    if (!isPlainObject(message) || typeof message.ticket !== 'string') return;
    const receipt = this.receipts.get(message.ticket);
    if (!receipt) return;
    if (message.delivered === true) return receipt.settle(true);
    receipt.refusals++;
    if (receipt.expected !== undefined && receipt.refusals >= receipt.expected) receipt.settle(false);
  }
}
