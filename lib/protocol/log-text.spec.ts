import { describe, expect, it } from '@jest/globals';
import type { Logger } from '@nestjs/common';
import { asMcpError, reportInternalError } from './internal-error.js';
import { LOG_VALUE_MAX, logSafe, stackForLog } from './log-text.js';
import { InvalidParamsError } from './mcp.error.js';

describe('logSafe', () => {
  it('keeps printable text, numbers and non-ASCII letters as they are', () => {
    expect(logSafe('tools/call "hello-world" 42 é ✓ 日本')).toBe('tools/call "hello-world" 42 é ✓ 日本');
    expect(logSafe(7)).toBe('7');
    expect(logSafe(undefined)).toBe('undefined');
  });

  it.each([
    ['a newline', 'a\nb', 'a\\nb'],
    ['a carriage return', 'a\rb', 'a\\rb'],
    ['a tab', 'a\tb', 'a\\tb'],
    ['an ANSI colour (ESC [)', '\u001b[31mred\u001b[0m', '\\u001b[31mred\\u001b[0m'],
    ['a one-byte CSI (0x9b)', 'a\u009b2Jb', 'a\\u009b2Jb'],
    ['NUL, BEL and DEL', '\u0000\u0007\u007f', '\\u0000\\u0007\\u007f'],
    ['the Unicode line and paragraph separators', 'a\u2028b\u2029c', 'a\\u2028b\\u2029c'],
    ['a bidirectional override', 'a\u202eb\u2066c', 'a\\u202eb\\u2066c'],
    ['a backslash (so an escape in the log is always ours)', 'a\\nb', 'a\\\\nb'],
  ])('escapes %s', (_case, value, shown) => {
    expect(logSafe(value)).toBe(shown);
  });

  it('cuts a long value at the limit and says how much was left out', () => {
    const shown = logSafe('x'.repeat(1_000_000));
    expect(shown).toBe(`${'x'.repeat(LOG_VALUE_MAX)}…(${1_000_000 - LOG_VALUE_MAX} more characters)`);
    expect(logSafe('abcdef', 3)).toBe('abc…(3 more characters)');
  });

  it('counts the limit before escaping, so an escaped value stays bounded', () => {
    expect(logSafe('\n'.repeat(10), 4)).toBe('\\n\\n\\n\\n…(6 more characters)');
  });
});

describe('stackForLog', () => {
  it('escapes the message at the head of a stack and keeps the frames', () => {
    const error = new Error('bad id "1\n[Nest] 999 ERROR forged\u001b[31m"');
    const stack = stackForLog(error)!;
    const [head, ...frames] = stack.split('\n');
    expect(head).toBe('Error: bad id "1\\n[Nest] 999 ERROR forged\\u001b[31m"');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((frame) => /^\s+at /.test(frame))).toBe(true);
  });

  it('escapes a stack that does not start with its message line by line', () => {
    const error = new Error('x');
    error.stack = 'Custom\u001b[31m head\n    at somewhere (file.js:1:1)';
    expect(stackForLog(error)).toBe('Custom\\u001b[31m head\n    at somewhere (file.js:1:1)');
  });
});

describe('reportInternalError and asMcpError', () => {
  function recorder() {
    const calls: Array<{ level: string; args: unknown[] }> = [];
    const logger = {
      error: (...args: unknown[]) => calls.push({ level: 'error', args }),
      debug: (...args: unknown[]) => calls.push({ level: 'debug', args }),
    } as unknown as Logger;
    return { calls, logger };
  }

  it('logs what failed, the id and the message escaped, with the stack, and hands back only the reference', () => {
    const { calls, logger } = recorder();
    const answer = reportInternalError(logger, 'Tool "a\nb"', 'id\u001b[2J', new Error('boom\nERROR forged'));
    const ref = /^Internal error \(ref ([0-9a-f]{16})\)$/.exec(answer)![1];
    expect(calls).toHaveLength(1);
    expect(calls[0].level).toBe('error');
    expect(calls[0].args[0]).toBe(`Tool "a\\nb" failed (request id\\u001b[2J, ref ${ref}): boom\\nERROR forged`);
    expect(String(calls[0].args[1])).toMatch(/^Error: boom\\nERROR forged\n\s+at /);
  });

  it('answers an McpError as it is, without logging it', () => {
    const { calls, logger } = recorder();
    const error = new InvalidParamsError('Unknown tool: x');
    expect(asMcpError(logger, 'tools/call', 1, error)).toBe(error);
    expect(calls).toEqual([]);
  });

  it('after the call ended (its signal fired), a failure is one debug line without a stack, answered as cancelled', () => {
    const { calls, logger } = recorder();
    const abort = new AbortController();
    abort.abort(new Error('Cancelled by the client\n[Nest] forged'));
    const answered = asMcpError(logger, 'tools/call "slow"', 'r-1', new Error('This operation was aborted'), abort.signal);
    expect(answered.toJsonRpc()).toEqual({ code: -32600, message: 'The request was cancelled' });
    expect(calls).toEqual([
      { level: 'debug', args: ['tools/call "slow" (request r-1) stopped after its call ended (Cancelled by the client\\n[Nest] forged): This operation was aborted'] },
    ]);
  });

  it('an unexpected failure of a call still running is reported at error level', () => {
    const { calls, logger } = recorder();
    const answered = asMcpError(logger, 'tools/list', 2, new TypeError('nope'), new AbortController().signal);
    expect(answered.toJsonRpc()).toMatchObject({ code: -32603, message: expect.stringMatching(/^Internal error \(ref [0-9a-f]{16}\)$/) });
    expect(calls.map((call) => call.level)).toEqual(['error']);
  });
});
