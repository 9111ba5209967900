/**
 * A real headless Chromium (Debian's `chromium` package) driven by puppeteer-core, for the tests
 * that check a page as a person sees it. CI installs the package: `apt-get install -y chromium`.
 */
import { describe } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { findBinary, missingBinary } from './local-services.js';

export const chromiumPath = (): string | undefined => process.env.CHROMIUM_PATH ?? findBinary('chromium');

/**
 * `describe` when Chromium is installed; otherwise a suite that fails on CI (CI must install it)
 * and is skipped locally with a message.
 */
export function describeWithChromium(name: string, body: () => void): void {
  if (chromiumPath()) describe(name, body);
  else describe(name, () => missingBinary('chromium', name));
}

/** A started browser with its own empty profile; `close()` ends it and removes the profile. */
export interface HeadlessBrowser {
  browser: Browser;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<HeadlessBrowser> {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error('chromium is not installed: apt-get install -y chromium');
  const profile = mkdtempSync(join(tmpdir(), 'nest-mcp-chromium-'));
  const browser = await puppeteer.launch({
    executablePath,
    headless: true,
    userDataDir: profile,
    // No sandbox as root in CI containers; no background networking on a machine with a closed network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
