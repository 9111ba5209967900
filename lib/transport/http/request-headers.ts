import { decodeHeaderValue, MCP_NAME_FIELDS } from '../../protocol/mcp-headers.js';
import { HeaderMismatchError } from '../../protocol/mcp.error.js';
import type { RequestMeta } from '../../protocol/request-meta.js';
import type { JsonRpcRequest } from '../../protocol/wire.types.js';

type Headers = Record<string, string | string[] | undefined>;

/** Headers that hold one value (RFC 9110); Node keeps the first when one is repeated. */
const SINGLETONS: ReadonlySet<string> = new Set(['host', 'content-type', 'content-length']);

/**
 * One request header (by its lower-case name) as one string. A repeated header reads as Node reads
 * it: a singleton keeps its first value, any other is joined with ", ", so a second `Origin` or
 * `Mcp-Method` makes a value that matches nothing rather than letting the first one pass.
 */
export function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  if (!Array.isArray(value)) return value;
  return SINGLETONS.has(name) ? value[0] : value.join(', ');
}

/**
 * The standard request headers of 2026-07-28 must be present and agree with the body: a missing
 * or different value is HeaderMismatch (-32020, HTTP 400). Values are case-sensitive.
 */
export function validateStandardHeaders(headers: Headers, request: JsonRpcRequest, meta: RequestMeta): void {
  const version = headerValue(headers, 'mcp-protocol-version');
  if (version === undefined) throw new HeaderMismatchError('the MCP-Protocol-Version header is required');
  if (version !== meta.protocolVersion) {
    throw new HeaderMismatchError(`MCP-Protocol-Version header "${version}" does not match _meta protocolVersion "${meta.protocolVersion}"`);
  }
  const method = headerValue(headers, 'mcp-method');
  if (method === undefined) throw new HeaderMismatchError('the Mcp-Method header is required');
  if (method !== request.method) {
    throw new HeaderMismatchError(`Mcp-Method header "${method}" does not match body method "${request.method}"`);
  }
  const field = MCP_NAME_FIELDS.get(request.method);
  if (!field) return;
  const rawName = headerValue(headers, 'mcp-name');
  if (rawName === undefined) throw new HeaderMismatchError(`the Mcp-Name header is required for ${request.method}`);
  const name = decodeHeaderValue('Mcp-Name', rawName);
  const bodyValue = request.params?.[field];
  if (name !== bodyValue) {
    throw new HeaderMismatchError(`Mcp-Name header "${rawName}" does not match body ${field} "${String(bodyValue)}"`);
  }
}

/**
 * SEP-2243 `x-mcp-header`: each mirrored argument that has a value must arrive as
 * `Mcp-Param-{Name}` too, and agree with the body (integers compared as numbers).
 */
export function validateParamHeaders(headers: Headers, args: unknown, mirrored: ReadonlyMap<string, string>): void {
  const values = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  for (const [property, suffix] of mirrored) {
    const headerName = `Mcp-Param-${suffix}`;
    const raw = headerValue(headers, headerName.toLowerCase());
    const value = values[property];
    if (value === undefined || value === null) continue;
    if (raw === undefined) throw new HeaderMismatchError(`the ${headerName} header is required when "${property}" is set`);
    const decoded = decodeHeaderValue(headerName, raw);
    const matches =
      typeof value === 'number' ? decoded.trim() !== '' && Number(decoded) === value : decoded === String(value);
    if (!matches) throw new HeaderMismatchError(`${headerName} header "${raw}" does not match argument "${property}"`);
  }
}
