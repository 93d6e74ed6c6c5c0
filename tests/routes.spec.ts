import {ALL_DOCS, DOC_CATEGORIES} from '../src/constants/docs';
import {SITE} from '../src/constants/site';
import {expect, openPage, test} from './support/fixtures';

test.describe('the eleven documentation routes (spec §2)', () => {
  for (const doc of ALL_DOCS) {
    test(`${doc.path} renders "${doc.title}" with its own title, description and active sidebar link`, async ({page}) => {
      const response = await page.goto(doc.path);
      expect(response?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
      await expect(page.getByRole('heading', {level: 1})).toHaveText(doc.title);
      await expect(page).toHaveTitle(`${doc.title} | ${SITE.title}`);
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description?.length ?? 0).toBeGreaterThan(40);
      const activeLink = page.locator('.theme-doc-sidebar-menu a.menu__link[aria-current="page"]');
      await expect(activeLink).toHaveText(doc.title);
      await expect(activeLink).toHaveAttribute('href', doc.path);
      // Every page opens with a paragraph and has at least three h2 sections.
      await expect(page.locator('.theme-doc-markdown > p').first()).not.toBeEmpty();
      expect(await page.locator('.theme-doc-markdown h2').count()).toBeGreaterThanOrEqual(3);
    });
  }

  test('one sidebar holds exactly the eleven docs, in the spec order and grouping', async ({page}) => {
    await openPage(page, '/');
    const sidebar = page.locator('nav[aria-label="Docs sidebar"]');
    const categories = sidebar.locator(':scope > ul > li.theme-doc-sidebar-item-category');
    await expect(categories).toHaveCount(DOC_CATEGORIES.length);
    for (const [index, category] of DOC_CATEGORIES.entries()) {
      const item = categories.nth(index);
      await expect(item.locator('.menu__list-item-collapsible').first()).toHaveText(category.label);
      await expect(item.locator('a.menu__link[href]')).toHaveText(category.docs.map((doc) => doc.title));
    }
    const hrefs = await sidebar.locator('a.menu__link[href]').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(hrefs).toEqual(ALL_DOCS.map((doc) => doc.path));
  });

  test('/ is the Introduction doc itself, not a landing page', async ({page}) => {
    await openPage(page, '/');
    await expect(page.locator('.theme-doc-markdown h1')).toHaveText('Introduction');
    await expect(page.locator('html')).toHaveClass(/docs-doc-id-getting-started\/introduction/);
    await expect(page.locator('html')).toHaveClass(/docs-version-current/);
  });

  test('moving through all pages with the sidebar works client-side', async ({page}) => {
    await openPage(page, '/');
    for (const doc of ALL_DOCS.slice(1)) {
      await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: doc.title, exact: true}).click();
      await expect(page).toHaveURL(doc.path);
      await expect(page.getByRole('heading', {level: 1})).toHaveText(doc.title);
    }
  });

  test('the pagination links at the bottom chain the pages in sidebar order', async ({page}) => {
    await openPage(page, '/getting-started/quick-start');
    await expect(page.locator('.pagination-nav__link--prev')).toHaveAttribute('href', '/');
    await expect(page.locator('.pagination-nav__link--next')).toHaveAttribute('href', '/getting-started/main-concepts');
  });
});

test.describe('not-found and odd URLs', () => {
  // The browser logs the 404/400 status of the document itself; nothing else may be logged.
  test.use({allowedConsoleErrors: /Failed to load resource: the server responded with a status of (404|400|414|500)/});

  test('an unknown path shows the not-found page with status 404', async ({page}) => {
    const response = await page.goto('/no/such/page');
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

  const oddPaths = [
    `/${'a'.repeat(250)}`,
    `/getting-started/${'x/'.repeat(200)}deep`,
    '/%E2%9C%93%20check',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/getting-started/../basics/sdk',
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
      await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
      await expect(page.getByRole('heading', {level: 1})).toHaveText(status === 200 ? 'SDK' : 'Page Not Found');
    });
  }
});
