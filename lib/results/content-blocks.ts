import type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  EmbeddedResource,
  Icon,
  ImageContent,
  JsonObject,
  ResourceLink,
  TextContent,
  TextResourceContents,
} from '../protocol/wire.types.js';
import { normalizeAnnotations } from './annotations.js';
import type { AnnotationsInput } from './annotations.js';

/** Binary payload: a base64 string (sent as is) or raw bytes (`Buffer` is a `Uint8Array`). @publicApi */
export type BinaryData = string | Uint8Array;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// type/subtype with optional parameters, e.g. "text/plain; charset=utf-8".
const MIME_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+(?:\s*;.*)?$/;

function toBase64(data: BinaryData, what: string): string {
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  if (typeof data !== 'string') throw new TypeError(`${what} must be a base64 string or a Uint8Array/Buffer`);
  if (data.startsWith('data:')) {
    throw new TypeError(`${what} must be plain base64, not a data: URL; pass the part after "base64,"`);
  }
  // Catches raw text passed by mistake: clients would fail to decode it.
  if (!BASE64.test(data)) throw new TypeError(`${what} is not valid base64`);
  return data;
}

function checkMimeType(mimeType: unknown, what: string): string {
  if (typeof mimeType !== 'string' || !MIME_TYPE.test(mimeType)) {
    throw new TypeError(`${what} must be a MIME type like "image/png", got ${JSON.stringify(mimeType)}`);
  }
  return mimeType;
}

function checkUri(uri: unknown, what: string): string {
  // The schema gives resource URIs `format: "uri"`: absolute, with a scheme.
  if (typeof uri !== 'string' || !URL.canParse(uri)) throw new TypeError(`${what} must be an absolute URI, got ${JSON.stringify(uri)}`);
  return uri;
}

function withAnnotations<T extends { annotations?: Annotations }>(block: T, annotations: AnnotationsInput | undefined): T {
  const normalized = normalizeAnnotations(annotations);
  return normalized === undefined ? block : { ...block, annotations: normalized };
}

/**
 * A text block.
 * @publicApi
 */
export function text(text: string, annotations?: AnnotationsInput): TextContent {
  if (typeof text !== 'string') throw new TypeError(`text must be a string, got ${typeof text}`);
  return withAnnotations<TextContent>({ type: 'text', text }, annotations);
}

/**
 * An image block; bytes are base64-encoded, a string is taken as base64 already.
 * @publicApi
 */
export function image(data: BinaryData, mimeType: string, annotations?: AnnotationsInput): ImageContent {
  return withAnnotations<ImageContent>(
    { type: 'image', data: toBase64(data, 'image data'), mimeType: checkMimeType(mimeType, 'image mimeType') },
    annotations,
  );
}

/**
 * An audio block; bytes are base64-encoded, a string is taken as base64 already.
 * @publicApi
 */
export function audio(data: BinaryData, mimeType: string, annotations?: AnnotationsInput): AudioContent {
  return withAnnotations<AudioContent>(
    { type: 'audio', data: toBase64(data, 'audio data'), mimeType: checkMimeType(mimeType, 'audio mimeType') },
    annotations,
  );
}

/** Fields of {@link resourceLink}. @publicApi */
export interface ResourceLinkInput {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size of the raw content in bytes. */
  size?: number;
  icons?: Icon[];
  annotations?: AnnotationsInput;
  _meta?: JsonObject;
}

/**
 * A link to a resource the client may read; it need not appear in `resources/list`.
 * @publicApi
 */
export function resourceLink(input: ResourceLinkInput): ResourceLink {
  if (typeof input !== 'object' || input === null) throw new TypeError('resourceLink needs { uri, name, ... }');
  const { uri, name, title, description, mimeType, size, icons, annotations, _meta } = input;
  if (typeof name !== 'string' || name.length === 0) throw new TypeError('resourceLink name must be a non-empty string');
  const link: ResourceLink = { type: 'resource_link', uri: checkUri(uri, 'resourceLink uri'), name };
  if (title !== undefined) link.title = requireString(title, 'resourceLink title');
  if (description !== undefined) link.description = requireString(description, 'resourceLink description');
  if (mimeType !== undefined) link.mimeType = checkMimeType(mimeType, 'resourceLink mimeType');
  if (size !== undefined) {
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`resourceLink size must be a non-negative integer, got ${size}`);
    link.size = size;
  }
  if (icons !== undefined) {
    if (!Array.isArray(icons) || !icons.every((icon) => typeof icon?.src === 'string')) {
      throw new TypeError('resourceLink icons must be an array of { src, ... }');
    }
    link.icons = icons.map((icon) => ({ ...icon }));
  }
  const normalized = normalizeAnnotations(annotations);
  if (normalized !== undefined) link.annotations = normalized;
  if (_meta !== undefined) link._meta = _meta;
  return link;
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string`);
  return value;
}

/**
 * A resource embedded as text.
 * @publicApi
 */
export function embeddedText(uri: string, text: string, mimeType?: string, annotations?: AnnotationsInput): EmbeddedResource {
  const resource: TextResourceContents = { uri: checkUri(uri, 'embedded resource uri'), text: requireString(text, 'embedded resource text') };
  if (mimeType !== undefined) resource.mimeType = checkMimeType(mimeType, 'embedded resource mimeType');
  return withAnnotations<EmbeddedResource>({ type: 'resource', resource }, annotations);
}

/**
 * A resource embedded as binary; bytes are base64-encoded, a string is taken as base64 already.
 * @publicApi
 */
export function embeddedBlob(uri: string, data: BinaryData, mimeType?: string, annotations?: AnnotationsInput): EmbeddedResource {
  const resource: BlobResourceContents = { uri: checkUri(uri, 'embedded resource uri'), blob: toBase64(data, 'embedded resource data') };
  if (mimeType !== undefined) resource.mimeType = checkMimeType(mimeType, 'embedded resource mimeType');
  return withAnnotations<EmbeddedResource>({ type: 'resource', resource }, annotations);
}
