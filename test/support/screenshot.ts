/// <reference lib="dom" />
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Browser } from 'puppeteer-core';

/** How two screenshots are told apart: a pixel differs when a channel moves more than this… */
const CHANNEL_TOLERANCE = 48;
/** …and the images differ when more than this share of their pixels does (a port number, a timing). */
const PIXEL_SHARE_TOLERANCE = 0.005;

export interface ScreenshotComparison {
  written: boolean;
  /** The share of pixels that differ (1 when the sizes differ or there was no file). */
  differing: number;
}

/**
 * Writes `png` to `path` only when it differs from the file there beyond the tolerance, so that a run
 * on the same state leaves the committed screenshot alone. The two images are decoded and compared
 * by the browser itself (a blank page's canvas): no image library.
 */
export async function writeScreenshotIfChanged(browser: Browser, path: string, png: Uint8Array): Promise<ScreenshotComparison> {
  const differing = existsSync(path) ? await compare(browser, readFileSync(path), png) : 1;
  const written = differing > PIXEL_SHARE_TOLERANCE;
  if (written) writeFileSync(path, png);
  return { written, differing };
}

async function compare(browser: Browser, before: Uint8Array, after: Uint8Array): Promise<number> {
  const page = await browser.newPage();
  try {
    const toUrl = (png: Uint8Array) => `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
    return await page.evaluate(
      async (first, second, channelTolerance) => {
        const pixels = async (url: string) => {
          const image = new Image();
          image.src = url;
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.naturalWidth;
          canvas.height = image.naturalHeight;
          const context = canvas.getContext('2d')!;
          context.drawImage(image, 0, 0);
          return context.getImageData(0, 0, canvas.width, canvas.height);
        };
        const [a, b] = [await pixels(first), await pixels(second)];
        if (a.width !== b.width || a.height !== b.height) return 1;
        let differing = 0;
        for (let i = 0; i < a.data.length; i += 4) {
          for (let channel = 0; channel < 4; channel++) {
            if (Math.abs(a.data[i + channel] - b.data[i + channel]) > channelTolerance) {
              differing++;
              break;
            }
          }
        }
        return differing / (a.width * a.height);
      },
      toUrl(before),
      toUrl(after),
      CHANNEL_TOLERANCE,
    );
  } finally {
    await page.close();
  }
}
