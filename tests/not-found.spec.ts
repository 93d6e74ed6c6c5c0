import type {Page} from '@playwright/test';
import {SITE} from '../src/constants/site';
import {seriousAxeViolations} from './support/axe';
import {expect, openPage, test, waitForHydration} from './support/fixtures';

const h1 = (page: Page) => page.getByRole('heading', {level: 1});

// Each doc page is checked on the load tests/routes.spec.ts checks it on (its comment says with which rules in which
// mode); the not-found page here, on both viewports.
test.describe('not-found page', () => {
  test.use({allowedConsoleErrors: /status of 404/});
  test('an unknown path shows the not-found page with status 404, with no serious or critical axe violations', async ({
    page,
  }) => {
    const response = await openPage(page, '/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(h1(page)).toHaveText('Page Not Found');
    await expect(page.locator('.theme-doc-markdown')).toHaveCount(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

// What the server and the router answer to a URL does not depend on the viewport: run once.
test.describe('not-found and odd URLs', {tag: '@viewport-independent'}, () => {
  // The browser logs the 404/400 status of the document itself; nothing else may be logged.
  test.use({allowedConsoleErrors: /Failed to load resource: the server responded with a status of (404|400|414|500)/});

  test('a page by its .html file or index.html shows it; a client-side navigation to an unknown path shows the not-found page', async ({
    page,
  }) => {
    for (const [path, title] of [
      ['/getting-started/quick-start.html', 'Quick start'],
      ['/getting-started/quick-start/index.html', 'Quick start'],
      ['/index.html', 'Introduction'],
    ] as const) {
      await openPage(page, path);
      await expect(h1(page), path).toHaveText(title);
      await expect(page, path).toHaveTitle(`${title} | ${SITE.title}`);
    }
    await page.evaluate(() => {
      window.history.pushState({}, '', '/definitely-missing');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(h1(page)).toHaveText('Page Not Found');
  });

  test('an odd URL gives a real page, never a blank one', async ({page}) => {
    // Dot segments (`..`, `%2e%2e`) are resolved by the browser before it sends a request, so they are left to
    // nginx's raw test (tests/nginx.spec.ts).
    for (const path of [
      `/${'a'.repeat(250)}`,
      `/getting-started/${'x/'.repeat(200)}deep`,
      '/%E2%9C%93%20check',
      '/%',
      '/basics/sdk?q=%3Cscript%3E#%3Cimg%3E',
    ]) {
      const status = (await page.goto(path))?.status();
      expect([200, 400, 404], path).toContain(status);
      if (status === 400) {
        // Malformed percent-encoding: the server refuses it with a readable page.
        await expect(page.locator('body'), path).toContainText('Bad Request');
        continue;
      }
      await waitForHydration(page);
      await expect(h1(page), path).toHaveText(status === 200 ? 'SDK' : 'Page Not Found');
    }
    // A segment longer than any file name may be: `docusaurus serve` answers 500 with its own text page (nginx
    // answers the not-found page; see the nginx tests). Either way the reader sees words.
    const response = await page.goto(`/${'a'.repeat(1500)}`);
    expect([404, 414, 500]).toContain(response?.status());
    await expect(page.locator('body')).toContainText(/Page Not Found|server error|Request-URI Too Large/);
  });
});
