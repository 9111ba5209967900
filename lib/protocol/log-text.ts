/** How much of one client-supplied value a log line shows. */
export const LOG_VALUE_MAX = 200;

/**
 * What must not reach a log as it is: C0 controls (newline, carriage return, ESC, which starts ANSI
 * colour and cursor sequences), DEL, C1 controls (0x9b is a one-byte CSI), the Unicode line and
 * paragraph separators, the bidirectional overrides and isolates (they reorder what a reader sees),
 * and the backslash (so an escape in the log can only have come from here).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\\]/g;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' };

function escape(char: string): string {
  return NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * A value a client sent (an id, a method, a tool name, a URI, a header), made safe for one log line:
 * control characters, newlines and ANSI escapes are written as `\n`, `\u001b`, …, and the text is cut
 * at `max` characters (the rest counted), so a client can neither forge a log line, colour one, nor
 * fill the log. Every log line that quotes a client's value takes it through here.
 */
export function logSafe(value: unknown, max = LOG_VALUE_MAX): string {
  const text = typeof value === 'string' ? value : String(value);
  const shown = text.length > max ? text.slice(0, max) : text;
  const escaped = shown.replace(UNSAFE, escape);
  return text.length > max ? `${escaped}…(${text.length - max} more characters)` : escaped;
}

/**
 * A stack for the log: its message (`Name: message`, which may quote a client) made safe as by
 * `logSafe`, its frames as they are. A stack that does not start with its message has its unsafe
 * characters escaped line by line instead.
 */
export function stackForLog(error: Error, max = LOG_VALUE_MAX * 10): string | undefined {
  const stack = error.stack;
  if (stack === undefined) return undefined;
  const head = `${error.name}: ${error.message}`;
  if (stack.startsWith(head)) return `${logSafe(head, max)}${stack.slice(head.length)}`;
  return stack
    .split('\n')
    .map((line) => logSafe(line, max))
    .join('\n');
}
