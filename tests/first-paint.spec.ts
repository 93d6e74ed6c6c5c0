import {readFileSync} from 'node:fs';

import {docRoutes, htmlFile} from './support/docs';
import {expect, test, waitForHydration} from './support/fixtures';
import {afterFrames, layoutShifts, recordLayoutShifts} from './support/render-skipping';
import {startStallingProxy} from './support/stalling-proxy';

type TopCounts = {navbar: number; pageTop: number};

declare global {
  interface Window {
    /** How many elements the navbar and the page's top hold in `root` (0 where one is not there yet). */
    countTop?: (root: ParentNode) => TopCounts;
    firstFrame?: TopCounts;
  }
}

// On a slow network or CPU the browser paints what it has parsed so far; a navbar cut before its search box, or a
// Markdown action before its label, is painted narrower, and their right-aligned boxes then move as the rest
// arrives. The pages ask Chromium to paint nothing until their top is parsed (PAGE_TOP_END_ID in src/constants/site.ts).
for (const route of docRoutes()) {
  test(`${route}, its HTML stalling mid-navbar and mid-button, is first painted with its navbar and Markdown actions whole, and nothing moves`, async ({
    page,
    baseURL,
  }) => {
    const proxy = await startStallingProxy({
      upstream: baseURL!,
      // Right after the language menu, before the search box (the navbar's right-hand group is half there), and in
      // the Copy button, before its label.
      splitAt: (html) => [
        html.indexOf('navbar__search'),
        html.indexOf('Copy page', html.indexOf('page-markdown-actions')),
      ],
      stallMs: 300,
    });
    try {
      await recordLayoutShifts(page);
      await page.addInitScript(() => {
        const count = (element: Element | null) => (element ? element.querySelectorAll('*').length + 1 : 0);
        window.countTop = (root) => ({
          navbar: count(root.querySelector('nav.navbar')),
          pageTop: count(root.querySelector('.page-markdown-actions')),
        });
        requestAnimationFrame(() => {
          window.firstFrame = window.countTop!(document);
        });
      });
      await page.goto(proxy.origin + route);
      await waitForHydration(page);
      const served = await page.evaluate(
        (html) => window.countTop!(new DOMParser().parseFromString(html, 'text/html')),
        readFileSync(htmlFile(route), 'utf8'),
      );
      expect(served.pageTop, `${route} has the page's top`).toBeGreaterThan(0);
      expect(await page.evaluate(() => window.firstFrame), `${route}: the first frame`).toEqual(served);
      await afterFrames(page, 2);
      expect(await layoutShifts(page), route).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
}
