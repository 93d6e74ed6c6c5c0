import type {Page} from '@playwright/test';

export type Rgb = [number, number, number];

/** The colour the page shows at one CSS pixel (a 1×1 screenshot, decoded by the browser itself). */
export async function pixelAt(page: Page, x: number, y: number): Promise<Rgb> {
  const png = await page.screenshot({
    clip: {x: Math.round(x), y: Math.round(y), width: 1, height: 1},
    scale: 'css',
    animations: 'disabled',
    caret: 'hide',
  });
  return page.evaluate(async (base64) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const bitmap = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
    const context = new OffscreenCanvas(1, 1).getContext('2d')!;
    context.drawImage(bitmap, 0, 0);
    const [red, green, blue] = context.getImageData(0, 0, 1, 1).data;
    return [red!, green!, blue!] as Rgb;
  }, png.toString('base64'));
}

/** The largest difference between two colours in any channel. */
export function colourDistance(a: Rgb, b: Rgb): number {
  return Math.max(...a.map((channel, index) => Math.abs(channel - b[index]!)));
}
