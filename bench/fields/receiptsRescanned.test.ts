import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { rescan, rescanProfiles } from './receiptsRescanned.js';

/** A white page with one black bar: enough to see a rescan's size and contrast. */
async function page(): Promise<Buffer> {
  const bar = await sharp({ create: { width: 200, height: 20, channels: 3, background: '#000000' } }).png().toBuffer();
  return sharp({ create: { width: 400, height: 600, channels: 3, background: '#ffffff' } }).composite([{ input: bar, left: 100, top: 290 }]).png().toBuffer();
}

describe('receipts rescanned', () => {
  it('coarse: a smaller JPEG of the page, its print still black', async () => {
    const out = await rescan(await page(), rescanProfiles.coarse!);
    const meta = await sharp(out).metadata();
    expect(meta.format).toBe('jpeg');
    // 65 % of 400 px, widened a little by the turn.
    expect(meta.width).toBeGreaterThanOrEqual(260);
    expect(meta.width).toBeLessThan(280);
    const { min } = (await sharp(out).greyscale().stats()).channels[0]!;
    expect(min).toBeLessThan(40);
  });

  it('faded: the print no darker than the contrast kept allows', async () => {
    const out = await rescan(await page(), rescanProfiles.faded!);
    const { min } = (await sharp(out).greyscale().stats()).channels[0]!;
    // 0.55 of the contrast kept: black becomes about 115 of 255.
    expect(min).toBeGreaterThan(90);
    expect(min).toBeLessThan(140);
  });
});
