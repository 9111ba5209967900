import { createHash } from 'node:crypto';

/** A JSON document anyone may read (a card, a catalog): its text and the entity tag of that text. */
export interface PublicDocument {
  body: string;
  etag: string;
}

export function publicDocument(value: unknown): PublicDocument {
  const body = JSON.stringify(value);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url')}"` };
}

/** `If-None-Match` names `etag` (weakly, as RFC 9110 compares for it) or is `*`: the client's copy is current. */
export function isNotModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  return ifNoneMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/**
 * What a public document is answered with, 200 and 304 alike: CORS for browser clients (the documents
 * are public and read-only, so any origin), and an hour of caching, as the Server Card extension asks.
 */
export const PUBLIC_DOCUMENT_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET',
  'Access-Control-Allow-Headers': 'Content-Type, If-None-Match',
  'Access-Control-Expose-Headers': 'ETag',
  'Cache-Control': 'public, max-age=3600',
} as const;
