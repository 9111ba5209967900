import { randomBytes } from 'node:crypto';
import { asSealKeys, type SealKeys } from '../mrtr/request-state.key.js';
import { parseSealedObject, SealedBox } from '../mrtr/sealed-box.js';
import { isPlainObject } from '../protocol/json-value.js';
import type { ClientCapabilities, Implementation } from '../protocol/wire.types.js';

/**
 * A 2025-era session (initialize → `Mcp-Session-Id`): what was negotiated, kept in the id itself so
 * any instance holding the key that sealed it (current or previous) can serve the session's requests
 * without a session table.
 * @publicApi
 */
export interface McpSession {
  /** Unique per session (random): the key under which an ended session is remembered. */
  id: string;
  /** The negotiated revision (2025-11-25, 2025-06-18 or 2025-03-26). */
  protocolVersion: string;
  clientCapabilities: ClientCapabilities;
  clientInfo?: Implementation;
  /** Epoch ms of initialize. */
  issuedAt: number;
  /**
   * Who opened it (the token's subject, else its client id) when auth is on: every later message of
   * the session must come from the same principal, else the session is unknown to it.
   */
  principal?: string;
}

/**
 * First byte of every session id; bump together with the AAD when the id or plaintext layout changes.
 * 2: the key id follows it (format 1 ids, without one, are unknown sessions: 404).
 */
export const SESSION_ID_FORMAT = 2;
/** Binds session ids to their purpose (then the format byte and key id): a requestState token never opens as a session, nor the reverse. */
export const SESSION_ID_AAD = 'nest-mcp/legacy-session/v2';
/** Longest session id looked at (an HTTP header; clients' capabilities are small). */
export const MAX_SESSION_ID_LENGTH = 4096;

const ID_BYTES = 16;
const MAX_CLOCK_SKEW_MS = 60_000;

interface WireSession {
  s: string;
  v: string;
  c: ClientCapabilities;
  n?: Implementation;
  i: number;
  p?: string;
}

/**
 * Seals a session into its `Mcp-Session-Id` (AES-256-GCM, the requestState keys, its own AAD) and
 * opens it again: sealed with the current key, opened with the key the id names (current or previous).
 * The id is base64url: visible ASCII, as sessions ids must be.
 */
export class LegacySessionCodec {
  private readonly box: SealedBox;

  /** `keys`: a key set, or one bare 32-byte key (current, no previous keys). */
  constructor(
    keys: SealKeys | Buffer,
    readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new Error(`LegacySessionCodec needs a positive TTL in milliseconds; got ${ttlMs}`);
    this.box = new SealedBox(asSealKeys(keys, 'LegacySessionCodec'), SESSION_ID_FORMAT, SESSION_ID_AAD);
  }

  /** A new session and its id; undefined when the client's data would make an id longer than MAX_SESSION_ID_LENGTH. */
  issue(fields: Pick<McpSession, 'protocolVersion' | 'clientCapabilities' | 'clientInfo' | 'principal'>): { session: McpSession; sessionId: string } | undefined {
    const session: McpSession = { id: randomBytes(ID_BYTES).toString('base64url'), ...fields, issuedAt: this.clock() };
    if (session.principal === undefined) delete session.principal;
    const wire: WireSession = { s: session.id, v: session.protocolVersion, c: session.clientCapabilities, i: session.issuedAt };
    if (session.clientInfo) wire.n = session.clientInfo;
    if (session.principal !== undefined) wire.p = session.principal;
    const sessionId = this.box.seal(Buffer.from(JSON.stringify(wire), 'utf8'));
    return sessionId.length > MAX_SESSION_ID_LENGTH ? undefined : { session, sessionId };
  }

  /** The session an id names, or undefined when it is not one of ours (none of the keys sealed it), was altered, or expired. */
  open(sessionId: string): McpSession | undefined {
    if (sessionId.length === 0 || sessionId.length > MAX_SESSION_ID_LENGTH) return undefined;
    const opened = this.box.open(sessionId);
    if ('problem' in opened) return undefined;
    const session = toSession(opened.plaintext);
    if (!session) return undefined;
    return this.isExpired(session) ? undefined : session;
  }

  /** True once the session's TTL has passed (or its issue time is implausibly far ahead: another clock, or a forgery). */
  isExpired(session: McpSession): boolean {
    const now = this.clock();
    return session.issuedAt + this.ttlMs <= now || session.issuedAt > now + MAX_CLOCK_SKEW_MS;
  }

  /** Milliseconds until the session expires (at least 1): how long its "ended" mark must be kept. */
  remainingTtlMs(session: McpSession): number {
    return Math.max(1, session.issuedAt + this.ttlMs - this.clock());
  }
}

function toSession(plaintext: Buffer): McpSession | undefined {
  const wire = parseSealedObject(plaintext);
  if (!wire) return undefined;
  const { s, v, c, n, i, p } = wire;
  if (typeof s !== 'string' || typeof v !== 'string' || !isPlainObject(c) || typeof i !== 'number' || !Number.isFinite(i)) return undefined;
  if (n !== undefined && !(isPlainObject(n) && typeof n.name === 'string')) return undefined;
  if (p !== undefined && typeof p !== 'string') return undefined;
  return {
    id: s,
    protocolVersion: v,
    clientCapabilities: c as ClientCapabilities,
    ...(n ? { clientInfo: n as unknown as Implementation } : {}),
    issuedAt: i,
    ...(p !== undefined ? { principal: p } : {}),
  };
}
