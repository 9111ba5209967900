import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so equal data always gives equal text whatever
 * order the properties were built in. Otherwise follows JSON.stringify: `toJSON()` is honoured,
 * undefined/function/symbol properties are dropped (and become `null` in arrays), non-finite
 * numbers become `null`. A top-level `undefined` gives `"null"`. Cycles and BigInt throw TypeError.
 */
export function canonicalJson(value: unknown): string {
  return write(value, new Set()) ?? 'null';
}

/** 128-bit fingerprint (22 base64url chars) of the canonical JSON of `value`. */
export function fingerprint(value: unknown): string {
  return sha256(canonicalJson(value)).slice(0, 22);
}

/** Full sha256 (base64url) of tool/prompt arguments; a missing `arguments` counts as `{}`. */
export function digestArguments(args: unknown): string {
  return sha256(args === undefined ? '{}' : canonicalJson(args));
}

function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('base64url');
}

/** Returns undefined where JSON.stringify would omit the value. */
function write(value: unknown, ancestors: Set<object>): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonicalJson: BigInt values cannot be serialised');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const object = value as object;
  if (ancestors.has(object)) throw new TypeError('canonicalJson: the value contains a cycle');
  ancestors.add(object);
  let out: string;
  if (Array.isArray(object)) {
    out = `[${object.map((item) => write(item, ancestors) ?? 'null').join(',')}]`;
  } else {
    const record = object as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const text = write(record[key], ancestors);
      if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
    }
    out = `{${parts.join(',')}}`;
  }
  ancestors.delete(object);
  return out;
}
