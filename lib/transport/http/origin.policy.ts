import { DEFAULT_ALLOWED_HOSTS } from '../../mcp.constants.js';

/**
 * DNS-rebinding protection. A browser always sends `Origin` on a POST, so an `Origin` that is not
 * allowed is refused (403). By default only localhost origins are allowed; `Host` is checked only
 * when `allowedHosts` is configured (a server behind a load balancer has many names).
 */
export class OriginPolicy {
  private readonly origins: ReadonlySet<string> | undefined;
  private readonly hosts: ReadonlySet<string> | undefined;

  constructor(allowedOrigins: readonly string[] | undefined, allowedHosts: readonly string[] | undefined) {
    this.origins = allowedOrigins ? new Set(allowedOrigins.map((origin) => origin.toLowerCase())) : undefined;
    this.hosts = allowedHosts && !allowedHosts.includes('*') ? new Set(allowedHosts.map((host) => host.toLowerCase())) : undefined;
  }

  isAllowed(origin: string | undefined, host: string | undefined): boolean {
    if (!this.isHostAllowed(host)) return false;
    if (origin === undefined) return true;
    if (this.origins) return this.origins.has('*') || this.origins.has(origin.toLowerCase());
    try {
      return DEFAULT_ALLOWED_HOSTS.includes(new URL(origin).hostname.toLowerCase());
    } catch {
      return false;
    }
  }

  /** The `Host` rule alone, for what any origin may read (the Server Card). */
  isHostAllowed(host: string | undefined): boolean {
    return !this.hosts || (host !== undefined && this.hosts.has(hostname(host)));
  }
}

/** `Host` without its port; IPv6 literals keep their brackets. */
function hostname(host: string): string {
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  const colon = lower.lastIndexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}
