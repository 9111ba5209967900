import { Logger } from '@nestjs/common';
import { isIP } from 'node:net';
import type { McpRecordKind, McpRecordScope } from './mcp-store.js';

/** What an owner is read from: the HTTP request as the transport hands it over (Node's, on both adapters). */
interface RequestLike {
  headers?: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
}

/** Whom a new record counts against: a principal, or without auth the address a client connects from. @internal */
export interface RecordOwner {
  id: string;
}

/** The fair shares of the store's budgets, as settings resolve them (`mocapi.store.*`). @internal */
export interface SharePolicy {
  /** The most live records of each kind one owner may hold. */
  perClient: Record<McpRecordKind, number>;
  /** The header a trusted proxy puts the client's address in (lower case); `undefined`: the socket's address. */
  clientIpHeader: string | undefined;
}

/**
 * Fair shares of the store's budgets. Every budgeted record (a claim, a task, a session end) counts
 * against its owner: with auth, the token's principal; without, nothing a client sends can be trusted
 * to name it (clientInfo, headers, ids are the client's to choose), so it is the address it connects
 * from, IPv6 by its /64 (one host commonly holds a whole /64). No owner may hold more than its share
 * of a kind's budget. With auth on, the endpoint refuses requests without a token, so anonymous
 * traffic cannot take anything from signed-in users. Over stdio there is one peer: no shares.
 * @internal
 */
export class FairShares {
  private readonly logger = new Logger('McpStore');
  private proxyWarned = false;

  constructor(private readonly policy: SharePolicy) {}

  /** Whom a record made for this request counts against; `undefined` without an HTTP request (stdio). */
  owner(httpRequest: unknown, principal: string | undefined): RecordOwner | undefined {
    const request = httpRequest as RequestLike | undefined;
    if (!request || typeof request !== 'object') return undefined;
    if (principal !== undefined) return { id: `principal:${principal}` };
    const header = this.policy.clientIpHeader;
    const forwarded = header === undefined ? undefined : request.headers?.[header];
    const sent = Array.isArray(forwarded) ? forwarded.at(-1) : forwarded;
    if (header === undefined && !this.proxyWarned && request.headers?.['x-forwarded-for'] !== undefined) this.warnProxy();
    // The last entry: what the nearest (trusted) proxy saw.
    const address = sent === undefined ? request.socket?.remoteAddress : sent.split(',').at(-1)!.trim();
    return { id: `address:${clientNetwork(address ?? 'unknown')}` };
  }

  /** The scope of a new record of `kind` for `owner`: its share of the kind's budget. */
  scope(kind: McpRecordKind, owner: RecordOwner | undefined): McpRecordScope {
    return owner ? { kind, limits: [{ id: owner.id, limit: this.policy.perClient[kind] }] } : { kind };
  }

  /** The start-up line: which owner key is in force, and the shares. */
  describe(): string {
    const { perClient, clientIpHeader } = this.policy;
    const who = clientIpHeader
      ? `the token's principal, else the client address in the ${clientIpHeader} header (set by your proxy)`
      : "the token's principal, else the connection's address (behind a proxy, set mocapi.store.client-ip-header, or every client is one owner)";
    const shares = `${perClient.claim} requestState claims, ${perClient.task} tasks, ${perClient['session-end']} ended sessions`;
    return `Each client (${who}) may hold at most ${shares}`;
  }

  private warnProxy(): void {
    this.proxyWarned = true;
    this.logger.warn(
      'Requests carry X-Forwarded-For but mocapi.store.client-ip-header is not set: every client behind that proxy counts as one owner of ' +
        'store records (one share for all). Set it to the header your proxy overwrites with the client address.',
    );
  }
}

/** An IPv4 address as it is (IPv4-mapped IPv6 unwrapped), an IPv6 one as its /64; anything else as sent, capped. */
export function clientNetwork(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped && isIP(mapped[1]) === 4) return mapped[1];
  if (isIP(bare) === 4) return bare;
  if (isIP(bare) !== 6) return address.slice(0, 64);
  const [head, tail] = bare.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail === undefined ? [] : tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((group) => parseInt(group, 16).toString(16)).join(':')}::/64`;
}
