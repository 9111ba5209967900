import { describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamText, within } from './support/waiting.js';

/**
 * A setting the module cannot start with, as a user meets it: the built sample (HTTP and stdio) started
 * with a bad value in the environment prints one error line naming the variable the user set, no
 * stack, and exits non-zero (issue 32 §6).
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function start(entry: string, env: Record<string, string>): Promise<{ code: number | null; errors: string[]; stderr: string }> {
  const child = spawn(process.execPath, [join(ROOT, entry)], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1', PORT: '0', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr = new StreamText(`${entry}'s stderr`, child.stderr);
  const stdout = new StreamText(`${entry}'s stdout`, child.stdout);
  const code = await within(new Promise<number | null>((resolve) => child.on('close', resolve)), `${entry} to exit`, () => stderr.text);
  // Nest's start-up LOG lines are not errors; every other line is.
  const errors = `${stdout.text}${stderr.text}`.split('\n').filter((line) => line.trim() !== '' && !/\bLOG\b/.test(line));
  return { code, errors, stderr: stderr.text };
}

describe('a bad setting stops the sample with one line naming it', () => {
  it.each(['dist/sample/main.js', 'dist/sample/main-stdio.js'])('%s with MOCAPI_MRTR_TTL=banana', async (entry) => {
    const { code, errors, stderr } = await start(entry, { MOCAPI_MRTR_TTL: 'banana' });
    expect(code).not.toBe(0);
    expect(errors).toEqual([expect.stringContaining('MOCAPI_MRTR_TTL: Invalid ISO-8601 duration "banana"')]);
    expect(stderr).not.toMatch(/^\s+at /m);
  });

  // A blank secret (a deployment whose key went missing, or `MOCAPI_MRTR_SECRET= ` in .env) is not "no secret": no ephemeral key.
  it.each([
    ['dist/sample/main.js', ' '],
    ['dist/sample/main.js', ''],
    ['dist/sample/main-stdio.js', '  '],
  ])('%s with MOCAPI_MRTR_SECRET=%j', async (entry, secret) => {
    const { code, errors, stderr } = await start(entry, { MOCAPI_MRTR_SECRET: secret });
    expect(code).not.toBe(0);
    expect(errors).toEqual([expect.stringContaining('MOCAPI_MRTR_SECRET must be a base64-encoded 256-bit key (32 bytes); got an empty value')]);
    expect(stderr).not.toMatch(/^\s+at /m);
  });
});

describe('a misspelled setting is not ignored without a word', () => {
  it('dist/sample/main.js with MOCAPI_MRTR_TLL and MOCAPI_PLAYGRUND warns once for each, naming the setting meant', async () => {
    const child = spawn(process.execPath, [join(ROOT, 'dist/sample/main.js')], {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', PORT: '0', MOCAPI_MRTR_TLL: 'PT1M', MOCAPI_PLAYGRUND: 'false' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const output = new StreamText("the sample's output", child.stdout, child.stderr);
    const closed = new Promise((resolve) => child.on('close', resolve));
    try {
      // The server listening means start-up is over: every start-up warning is printed by then.
      await output.contains('MCP endpoint: http://');
      const warnings = output.text.split('\n').filter((line) => /\bWARN\b/.test(line) && line.includes('is not a setting'));
      expect(warnings).toEqual([
        expect.stringContaining('MOCAPI_MRTR_TLL is not a setting and is ignored: did you mean MOCAPI_MRTR_TTL?'),
        expect.stringContaining('MOCAPI_PLAYGRUND is not a setting and is ignored: did you mean MOCAPI_PLAYGROUND?'),
      ]);
    } finally {
      child.kill();
      await within(closed, 'the sample to exit', () => output.text);
    }
  });
});
