import {SITE} from '../src/constants/site';
import {builtSidebar, docPages, docRoutes} from './support/docs';
import {expect, openPage, test, waitForHydration} from './support/fixtures';

// Spec §2's route table, grouped and ordered as its sidebar: the expectation for the eleven pages it
// names. The pages themselves come from the build, so a page added later is checked by the same rules.
const SPEC_SIDEBAR: ReadonlyArray<{label: string; pages: ReadonlyArray<readonly [path: string, title: string]>}> = [
  {
    label: 'Getting started',
    pages: [
      ['/', 'Introduction'],
      ['/getting-started/quick-start', 'Quick start'],
      ['/getting-started/main-concepts', 'Main concepts'],
      ['/getting-started/authentication', 'Authentication'],
    ],
  },
  {
    label: 'Basics',
    pages: [
      ['/basics/sdk', 'SDK'],
      ['/basics/iframe', 'Iframe'],
      ['/basics/test-in-postman', 'Test in Postman'],
    ],
  },
  {
    label: 'Account management',
    pages: [
      ['/account-management/dashboard', 'Dashboard'],
      ['/account-management/billing', 'Billing'],
    ],
  },
  {
    label: 'Additional',
    pages: [
      ['/additional/changelog', 'Changelog'],
      ['/additional/contact-and-help-center', 'Contact and help center'],
    ],
  },
];
const SPEC_TITLES = new Map(SPEC_SIDEBAR.flatMap((category) => category.pages));

/** Whether `part` appears in `whole` in the same order (other items may come between). */
const inOrder = <T>(part: readonly T[], whole: readonly T[]) => {
  let at = 0;
  for (const item of whole) if (item === part[at]) at += 1;
  return at === part.length;
};

const PAGES = docPages();

test.describe('the documentation routes (spec §2)', () => {
  test('the build has every page of the spec', {tag: '@viewport-independent'}, () => {
    expect(
      docRoutes()
        .filter((path) => SPEC_TITLES.has(path))
        .sort(),
    ).toEqual([...SPEC_TITLES.keys()].sort());
  });

  for (const doc of PAGES) {
    test(`${doc.path} renders "${doc.title}" with its own title, description and active sidebar link`, async ({
      page,
    }) => {
      if (SPEC_TITLES.has(doc.path)) {
        expect(doc.title, 'the title of spec §2').toBe(SPEC_TITLES.get(doc.path));
      }
      expect(doc.title).not.toBe('');
      const response = await openPage(page, doc.path);
      expect(response?.status()).toBe(200);
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

  // The desktop sidebar (a phone shows the same items in its menu: tests/mobile.mobile.spec.ts).
  test(
    "one sidebar holds every page once, the spec's eleven in its order and grouping",
    {tag: '@desktop-only'},
    async ({page}) => {
      await openPage(page, '/');
      const sidebar = page.locator('nav[aria-label="Docs sidebar"]');
      const categories = await sidebar
        .locator(':scope > ul > li.theme-doc-sidebar-item-category')
        .evaluateAll((items) =>
          items.map((item) => ({
            label: item.querySelector('.menu__list-item-collapsible')?.textContent ?? '',
            links: Array.from(item.querySelectorAll('a.menu__link[href]')).map(
              (link) => [link.getAttribute('href') ?? '', link.textContent ?? ''] as const,
            ),
          })),
        );
      expect(
        inOrder(
          SPEC_SIDEBAR.map((category) => category.label),
          categories.map((category) => category.label),
        ),
        'spec categories in order',
      ).toBe(true);
      for (const category of SPEC_SIDEBAR) {
        const built = categories.find((candidate) => candidate.label === category.label);
        // Each spec page under its category with its title, in the spec's order (new pages may come between).
        const builtLinks = (built?.links ?? []).map(([href, title]) => `${href} ${title}`);
        expect(
          builtLinks.filter((link) => category.pages.some(([path, title]) => link === `${path} ${title}`)),
          category.label,
        ).toEqual(category.pages.map(([path, title]) => `${path} ${title}`));
      }
      // Every doc of the sitemap, and nothing else, is linked exactly once.
      const hrefs = await sidebar
        .locator('a.menu__link[href]')
        .evaluateAll((links) => links.map((link) => link.getAttribute('href')));
      expect([...hrefs].sort()).toEqual(docRoutes().sort());
    },
  );

  test('/ is the Introduction doc itself, not a landing page', async ({page}) => {
    await openPage(page, '/');
    await expect(page.locator('.theme-doc-markdown h1')).toHaveText('Introduction');
    await expect(page.locator('html')).toHaveClass(/docs-doc-id-getting-started\/introduction/);
    await expect(page.locator('html')).toHaveClass(/docs-version-current/);
  });

  // The desktop sidebar again; a phone's menu navigates in tests/mobile.mobile.spec.ts.
  test('moving through all pages with the sidebar works client-side', {tag: '@desktop-only'}, async ({page}) => {
    // One journey through every page: its time grows with the pages.
    test.setTimeout(15_000 + 5_000 * PAGES.length);
    await openPage(page, PAGES[0]!.path);
    for (const doc of PAGES.slice(1)) {
      await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: doc.title, exact: true}).click();
      await expect(page).toHaveURL(doc.path);
      await expect(page.getByRole('heading', {level: 1})).toHaveText(doc.title);
    }
  });

  test('the pagination links at the bottom chain the pages in sidebar order', async ({page}) => {
    const order = builtSidebar().flatMap((group) => group.pages.map((entry) => entry.path));
    await openPage(page, order[1]!);
    await expect(page.locator('.pagination-nav__link--prev')).toHaveAttribute('href', order[0]!);
    await expect(page.locator('.pagination-nav__link--next')).toHaveAttribute('href', order[2]!);
  });
});

// What the server and the router answer to a URL does not depend on the viewport (a phone's
// not-found page is opened by the accessibility checks): run once.
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
      await waitForHydration(page);
      await expect(page.getByRole('heading', {level: 1})).toHaveText(status === 200 ? 'SDK' : 'Page Not Found');
    });
  }
});
