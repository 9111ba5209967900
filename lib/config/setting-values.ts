import { parseIsoDuration } from './iso-duration.util.js';

/**
 * How a setting's value is read: an option as typed in `McpModuleOptions`, a config value as a string.
 * `parse` throws an `Error` whose message starts with `key`, which the sources rename to what the user set.
 * @internal
 */
export interface SettingType<T> {
  parse(value: unknown, key: string): T;
}

const type = <T>(parse: (value: unknown, key: string) => T): SettingType<T> => ({ parse });

/** A `true`/`false` setting: a boolean option as it is, a config string parsed; absent: `fallback`. */
export function flag(value: string | boolean | undefined, key: string, fallback: boolean): boolean {
  if (value === undefined || typeof value === 'boolean') return value ?? fallback;
  const text = value.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new Error(`${key} must be "true" or "false"; got "${value}"`);
}

export function positiveInteger(value: unknown, key: string, allowZero = false): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < (allowZero ? 0 : 1)) {
    throw new Error(`${key} must be a ${allowZero ? 'non-negative' : 'positive'} integer; got "${String(value)}"`);
  }
  return number;
}

export function duration(key: string, value: string): number {
  try {
    return parseIsoDuration(value);
  } catch (error) {
    throw new Error(`${key}: ${(error as Error).message}`);
  }
}

/** A duration that must not be zero (a task TTL of 0 would be gone before it is read). */
export function positiveDuration(key: string, value: string): number {
  const ms = duration(key, value);
  if (ms <= 0) throw new Error(`${key} must be longer than zero; got "${value}"`);
  return ms;
}

/** A comma-separated list (an option's array as it is), blank entries dropped. */
export function list(value: string | undefined): string[] | undefined {
  return value?.split(',').map((item) => item.trim()).filter(Boolean);
}

export const SETTING_TYPES = {
  text: type((value) => String(value)),
  /** A string or a `URL` (an option may give a `file:` URL). */
  path: type((value) => value as string | URL),
  integer: type((value, key) => positiveInteger(value, key)),
  count: type((value, key) => positiveInteger(value, key, true)),
  flag: type((value, key) => flag(value as string | boolean, key, false)),
  /** An ISO-8601 duration, kept as written: its milliseconds are `durationMs`. */
  isoDuration: type((value, key) => (duration(key, String(value)), String(value))),
  durationMs: type((value, key) => duration(key, String(value))),
  positiveDurationMs: type((value, key) => positiveDuration(key, String(value))),
  /** The verifiers take seconds; config gives ISO-8601 durations, as for every other mocapi key. */
  seconds: type((value, key) => duration(key, String(value)) / 1000),
  positiveSeconds: type((value, key) => positiveDuration(key, String(value)) / 1000),
  list: type((value) => (Array.isArray(value) ? (value as string[]) : list(String(value)))),
  /** A comma-separated list whose empty entries are kept (an error names their position); blank: none. */
  entries: type((value) => (Array.isArray(value) ? (value as string[]) : String(value).trim() === '' ? undefined : String(value).split(',').map((item) => item.trim()))),
  /** A fraction of a budget: more than 0, at most 1. */
  fraction: type((value, key) => {
    const number = typeof value === 'string' && value.trim() === '' ? NaN : Number(value);
    if (!Number.isFinite(number) || number <= 0 || number > 1) throw new Error(`${key} must be a fraction more than 0 and at most 1 (e.g. 0.02); got "${String(value)}"`);
    return number;
  }),
  /** An HTTP header name (a token), in lower case as Node keys headers. */
  headerName: type((value, key) => {
    const name = String(value).trim().toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) throw new Error(`${key} must be an HTTP header name; got "${String(value)}"`);
    return name;
  }),
  /** The endpoint path, with its leading slash. */
  endpoint: type((value) => (String(value).startsWith('/') ? String(value) : `/${String(value)}`)),
} satisfies Record<string, SettingType<unknown>>;

/** One of a few words. */
export function oneOf<const T extends string>(words: readonly T[], message: (got: string) => string): SettingType<T> {
  return type((value, key) => {
    if (!words.includes(value as T)) throw new Error(`${key} ${message(String(value))}`);
    return value as T;
  });
}
