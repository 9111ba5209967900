/** A `true`/`false` setting: a boolean option as it is, a config string parsed; absent: `fallback`. */
export function flag(value: string | boolean | undefined, key: string, fallback: boolean): boolean {
  if (value === undefined || typeof value === 'boolean') return value ?? fallback;
  const text = value.trim().toLowerCase();
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw new Error(`${key} must be "true" or "false"; got "${value}"`);
}
