import type {Page} from '@playwright/test';

// Lighthouse's desktop run: 940 px tall. The phone keeps its own screen (Lighthouse's mobile run).
export const LIGHTHOUSE_DESKTOP = {width: 1350, height: 940};

/** Resolves after the browser has produced `count` more frames. */
export function afterFrames(page: Page, count: number): Promise<void> {
  return page.evaluate(async (frames) => {
    for (let frame = 0; frame < frames; frame += 1) await new Promise(requestAnimationFrame);
  }, count);
}

type Shift = {value: number; sources: string[]};

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
        if (entry.hadRecentInput) continue;
        // Where each source moved, and when: a node gone by the time of the report is known by these alone.
        const box = ({x, y, width, height}: DOMRectReadOnly) => `${x},${y} ${width}×${height}`;
        const sources = entry.sources.map(
          (source) =>
            `${source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node?.nodeName)} ` +
            `${box(source.previousRect)} → ${box(source.currentRect)} at ${Math.round(performance.now())} ms` +
            ` (${document.readyState}, hydrated: ${document.documentElement.dataset.hasHydrated ?? 'no'})`,
        );
        shifts.push({value: entry.value, sources});
      }
    }).observe({type: 'layout-shift', buffered: true});
  });
}

/** The layout shifts recorded since the current document started loading. */
export function layoutShifts(page: Page): Promise<Shift[]> {
  return page.evaluate(() => (window as unknown as {layoutShifts: Shift[]}).layoutShifts);
}
