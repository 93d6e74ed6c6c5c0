import {expect, test} from './support/fixtures';
import {startStallingProxy} from './support/stalling-proxy';

// A connection that stalls mid-page must not leave the reader a blank screen: the browser paints what has arrived.
// No page waits for an element before its first paint (one that may never arrive: a dropped connection, a page
// without it such as 404 or search).
const PAGES = [
  {route: '/getting-started/main-concepts', cut: 'navbar__search'},
  {route: '/search', cut: 'navbar__search'},
  {route: '/this-page-does-not-exist', cut: 'navbar__search', answers404: true},
];

for (const {route, cut, answers404} of PAGES) {
  test.describe(route, () => {
    // A missing page is answered 404, which Chromium logs.
    test.use({allowedConsoleErrors: answers404 ? /status of 404/ : undefined});
    test(`${route}, its HTML stalled mid-navbar, paints the navbar that arrived, then the rest once it comes`, async ({
      page,
      baseURL,
    }) => {
      const proxy = await startStallingProxy({upstream: baseURL!, splitAt: (html) => html.indexOf(cut)});
      try {
        await page.goto(proxy.origin + route, {waitUntil: 'commit'});
        // The first paint happens while the rest of the page is still held back.
        await page.waitForFunction(() =>
          performance.getEntriesByType('paint').some((entry) => entry.name === 'first-paint'),
        );
        await expect(page.locator('nav.navbar .navbar__brand')).toBeVisible();
        await expect(page.locator('footer')).toHaveCount(0);
        proxy.release();
        await expect(page.locator('footer')).toBeAttached();
      } finally {
        await proxy.close();
      }
    });
  });
}
