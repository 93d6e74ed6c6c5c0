import type {Locator, Page} from '@playwright/test';
import {expect, openPage} from './fixtures';

// Lighthouse's desktop run: 940 px tall. The phone keeps its own screen (Lighthouse's mobile run).
export const LIGHTHOUSE_DESKTOP = {width: 1350, height: 940};

/** Resolves after the browser has produced `count` more frames. */
export function afterFrames(page: Page, count: number): Promise<void> {
  return page.evaluate(
    (frames) =>
      new Promise<void>((resolve) => {
        const next = () => (frames-- > 0 ? requestAnimationFrame(next) : resolve());
        next();
      }),
    count,
  );
}

/** The last of the matching elements that is displayed (not in a hidden tab panel). */
export function lastShown(locator: Locator): Locator {
  return locator.filter({visible: true}).last();
}

/** Opening a deep anchor lands on its heading, and it stays there as the page hydrates; nothing in view moves. */
export async function checkDeepAnchorLands(page: Page): Promise<void> {
  await recordLayoutShifts(page);
  await openPage(page, '/getting-started/main-concepts#errors');
  const heading = page.locator('h2#errors');
  // Where the browser puts a fragment target: its scroll-margin below the top (the navbar hides on scroll).
  const wanted = await heading.evaluate((element) => parseFloat(getComputedStyle(element).scrollMarginTop));
  const top = () => heading.evaluate((element) => Math.round(element.getBoundingClientRect().top));
  await expect.poll(async () => Math.abs((await top()) - wanted)).toBeLessThanOrEqual(1);
  // Still there a few frames later, once the blocks above it have their final size.
  const landed = await top();
  await afterFrames(page, 5);
  expect(await top()).toBe(landed);
  expect(await layoutShifts(page), 'layout shifts while the page loads at the anchor').toEqual([]);
}

export type Shift = {value: number; sources: string[]};

/** From now on, the page records every layout shift not caused by input (read them with `layoutShifts`). */
export async function recordLayoutShifts(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const shifts: Shift[] = [];
    (window as unknown as {layoutShifts: Shift[]}).layoutShifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        hadRecentInput: boolean;
        sources: {node?: Node; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly}[];
      }[]) {
        if (!entry.hadRecentInput) {
          // Where each source moved, and when: a node gone by the time of the report is known by these alone.
          const box = ({x, y, width, height}: DOMRectReadOnly) => `${x},${y} ${width}×${height}`;
          shifts.push({
            value: entry.value,
            sources: entry.sources.map(
              (source) =>
                `${source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node?.nodeName)} ` +
                `${box(source.previousRect)} → ${box(source.currentRect)} at ${Math.round(performance.now())} ms` +
                ` (${document.readyState}, hydrated: ${document.documentElement.dataset.hasHydrated ?? 'no'})`,
            ),
          });
        }
      }
    }).observe({type: 'layout-shift', buffered: true});
  });
}

/** The layout shifts recorded since the current document started loading. */
export function layoutShifts(page: Page): Promise<Shift[]> {
  return page.evaluate(() => (window as unknown as {layoutShifts: Shift[]}).layoutShifts);
}
