import {SITE} from '../src/constants/site';
import {seriousAxeViolations} from './support/axe';
import {expect, openPage, test, waitForHydration} from './support/fixtures';

// Each doc page is checked on the load tests/routes.spec.ts checks it on (its comment says with which rules in which
// mode); the not-found page here.
test.describe('not-found page', () => {
  test.use({allowedConsoleErrors: /status of 404/});
  test('has no serious or critical axe violations', async ({page}) => {
    await openPage(page, '/no-such-page');
    expect(await seriousAxeViolations(page)).toEqual([]);
  });
});

// What the server and the router answer to a URL does not depend on the viewport (a phone's
// not-found page is opened by the accessibility check above): run once.
test.describe('not-found and odd URLs', {tag: '@viewport-independent'}, () => {
  // The browser logs the 404/400 status of the document itself; nothing else may be logged.
  test.use({allowedConsoleErrors: /Failed to load resource: the server responded with a status of (404|400|414|500)/});

  test('an unknown path shows the not-found page with status 404', async ({page}) => {
    const response = await openPage(page, '/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Page Not Found');
    await expect(page.locator('.theme-doc-markdown')).toHaveCount(0);
  });

  test('a client-side navigation to an unknown path shows the not-found page', async ({page}) => {
    await openPage(page, '/');
    await page.evaluate(() => {
      window.history.pushState({}, '', '/definitely-missing');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Page Not Found');
  });

  for (const variant of ['/getting-started/quick-start.html', '/getting-started/quick-start/index.html']) {
    test(`${variant} shows Quick start`, async ({page}) => {
      await openPage(page, variant);
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Quick start');
      await expect(page).toHaveTitle(`Quick start | ${SITE.title}`);
    });
  }

  test('a 1,500-character path segment gets a readable answer, not a blank page', async ({page}) => {
    // Longer than any file name may be: `docusaurus serve` answers 500 with its own text page
    // (nginx answers the not-found page; see the nginx tests). Either way the reader sees words.
    const response = await page.goto(`/${'a'.repeat(1500)}`);
    expect([404, 414, 500]).toContain(response?.status());
    await expect(page.locator('body')).toContainText(/Page Not Found|server error|Request-URI Too Large/);
  });

  test('/index.html shows the Introduction', async ({page}) => {
    await openPage(page, '/index.html');
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Introduction');
  });

  // Dot segments (`..`, `%2e%2e`) are resolved by the browser before it sends a request, so they are left to nginx's
  // raw test (tests/nginx.spec.ts).
  const oddPaths = [
    `/${'a'.repeat(250)}`,
    `/getting-started/${'x/'.repeat(200)}deep`,
    '/%E2%9C%93%20check',
    '/%',
    '/basics/sdk?q=%3Cscript%3E#%3Cimg%3E',
  ];
  for (const path of oddPaths) {
    test(`odd URL ${path.slice(0, 60)} gives a real page, never a blank one`, async ({page}) => {
      const response = await page.goto(path);
      const status = response?.status();
      expect([200, 400, 404]).toContain(status);
      if (status === 400) {
        // Malformed percent-encoding: the server refuses it with a readable page.
        await expect(page.locator('body')).toContainText('Bad Request');
        return;
      }
      await waitForHydration(page);
      await expect(page.getByRole('heading', {level: 1})).toHaveText(status === 200 ? 'SDK' : 'Page Not Found');
    });
  }
});
