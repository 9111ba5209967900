import { isIP } from 'node:net';

/** What a task's owner is read from: the HTTP request as the transport hands it over (Node's, on both adapters). */
interface RequestLike {
  headers?: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
}

/**
 * Whom a new task counts against (`mocapi.tasks.max-per-client`). With auth, the token's principal
 * (subject, else client id): that is who owns the task. Without auth nothing a client sends can be
 * trusted to name it (clientInfo, headers, ids are the client's to choose), so it is the address it
 * connects from: IPv4 as it is, IPv6 by its /64 (one host commonly holds a whole /64). Behind a
 * reverse proxy that is the proxy's, unless `ipHeader` names the header the proxy overwrites with
 * the client's address (its last entry: what the nearest proxy saw). Over stdio, one peer per process.
 * @internal
 */
export function taskOwner(httpRequest: unknown, principal: string | undefined, ipHeader: string | undefined): string {
  if (principal !== undefined) return `principal:${principal}`;
  const request = httpRequest as RequestLike | undefined;
  if (!request || typeof request !== 'object') return 'local';
  const forwarded = ipHeader === undefined ? undefined : request.headers?.[ipHeader];
  const sent = Array.isArray(forwarded) ? forwarded.at(-1) : forwarded;
  const address = sent === undefined ? request.socket?.remoteAddress : sent.split(',').at(-1)!.trim();
  return `address:${clientNetwork(address ?? 'unknown')}`;
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
