/**
 * `npm run bench:load-shifts [-- --rounds N --cpu K --phone]`: how often a page's layout shifts while it loads when
 * the CPU is slow enough for Chromium to paint a half-parsed page, with and without the pages' render-blocking
 * `<link rel="expect">` (the page's top painted whole). Serves the existing build/ with the Node server
 * (tests/bench/serve-build.ts); side A strips the link from each page as it is served, side B serves the page as
 * built. Every doc page N times per side (default 4), alternating A and B, CPU slowed K× through CDP (default 6),
 * at Lighthouse's desktop size (1350 × 940) or a Pixel 7 (`--phone`).
 *
 * Prints per side: loads with a layout shift before hydration settles, the elements that moved, and FCP median
 * (min–max). Not a test: it prints figures.
 */
import {chromium, devices} from '@playwright/test';

import {launchOptions} from '../../playwright.config';
import {docRoutes} from '../support/docs';
import {layoutShifts, recordLayoutShifts} from '../support/render-skipping';
import {argValue, median} from './cli';
import {ROOT, serveWithNode} from './serve-build';

type Load = {fcp: number; moved: string[]};

const RENDER_BLOCKING_LINK = /<link rel=expect [^>]*blocking=render>/;

async function main(): Promise<void> {
  const rounds = Number(argValue('--rounds') ?? 4);
  const cpu = Number(argValue('--cpu') ?? 6);
  const phone = process.argv.includes('--phone');
  const served = await serveWithNode(`${ROOT}/build`);
  const browser = await chromium.launch(launchOptions);
  const routes = docRoutes();
  const sides = {A: [] as Load[], B: [] as Load[]};
  try {
    for (let round = 0; round < rounds; round += 1) {
      for (const route of routes) {
        for (const side of ['A', 'B'] as const) {
          const context = await browser.newContext(
            phone ? {...devices['Pixel 7']} : {viewport: {width: 1350, height: 940}},
          );
          const page = await context.newPage();
          const cdp = await context.newCDPSession(page);
          await cdp.send('Emulation.setCPUThrottlingRate', {rate: cpu});
          await page.route('**/*', async (request) => {
            if (request.request().resourceType() !== 'document') {
              await request.continue();
              return;
            }
            const response = await request.fetch();
            const html = await response.text();
            if (!RENDER_BLOCKING_LINK.test(html)) throw new Error(`${route} has no <link rel=expect>`);
            await request.fulfill({response, body: side === 'A' ? html.replace(RENDER_BLOCKING_LINK, '') : html});
          });
          await recordLayoutShifts(page);
          await page.goto(`${served.origin}${route}`);
          await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
          // Two frames after hydration (afterFrames' named helper would not survive tsx's transform in the page).
          await page.evaluate(
            () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
          );
          const load = {
            fcp: await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN),
            moved: (await layoutShifts(page)).flatMap((shift) => shift.sources),
          };
          sides[side].push(load);
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await served.close();
  }
  console.log(
    `${served.how}; CPU ${cpu}× slower (CDP), ${phone ? 'Pixel 7' : '1350 × 940'}; ${routes.length} pages × ${rounds} ` +
      `loads per side, alternating; A = without <link rel=expect>, B = as built`,
  );
  console.log('| Side | Loads with a layout shift | What moved | FCP median (min–max) |');
  console.log('| --- | --- | --- | --- |');
  for (const [side, loads] of Object.entries(sides)) {
    const fcps = loads.map((load) => load.fcp);
    const moved = [...new Set(loads.flatMap((load) => load.moved))].join('; ') || '—';
    console.log(
      `| ${side} | ${loads.filter((load) => load.moved.length > 0).length} of ${loads.length} | ${moved} | ` +
        `${median(fcps).toFixed(0)} ms (${Math.min(...fcps).toFixed(0)}–${Math.max(...fcps).toFixed(0)}) |`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
