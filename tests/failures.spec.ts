import {expect, openPage, test, waitForHydration} from './support/fixtures';

test.describe('crash page (spec §2, §8)', () => {
  test.use({allowedConsoleErrors: [/Crash test: rendering failed on purpose/, /Simulated upstream timeout/, /Minified React error #418|#423|hydrat/i]});

  test('shows "Page Error", "This page crashed.", the error and its cause, and "Try again" recovers', async ({page}) => {
    await page.goto('/crash-test');
    await expect(page).toHaveTitle('Page Error');
    await expect(page.getByRole('heading', {level: 1})).toHaveText('This page crashed.');
    await expect(page.getByText('Crash test: rendering failed on purpose')).toBeVisible();
    await expect(page.getByText('Simulated upstream timeout')).toBeVisible();
    await expect(page.getByRole('link', {name: 'Go to the documentation home'})).toHaveAttribute('href', '/');
    await page.evaluate(() => {
      window.crashTestRecovered = true;
    });
    await page.getByRole('button', {name: 'Try again'}).click();
    await expect(page.getByTestId('crash-test-recovered')).toBeVisible();
  });
});

test.describe('loading failures (spec §4, §8)', () => {
  test('a page chunk that fails to load shows the red box with the error and a Retry button that recovers', async ({page}) => {
    // Find the chunk that only the SDK page needs, then fail it on a first full load.
    await openPage(page, '/');
    const sdkChunks = await page.evaluate(async () => {
      const before = new Set(performance.getEntriesByType('resource').map((entry) => entry.name));
      await window.docusaurus.preload('/basics/sdk');
      return performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => !before.has(name) && name.endsWith('.js'));
    });
    expect(sdkChunks.length).toBeGreaterThan(0);
    let failing = true;
    const consoleErrors: string[] = [];
    const fresh = await page.context().newPage();
    fresh.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
    await fresh.route(
      (url) => sdkChunks.includes(url.href),
      (route) => (failing ? route.abort('failed') : route.continue()),
    );
    await fresh.goto('/basics/sdk');
    const retry = fresh.getByRole('button', {name: 'Retry'});
    await expect(retry).toBeVisible();
    await expect(retry.locator('xpath=../..')).toContainText(/Loading chunk|ChunkLoadError|failed/i);
    failing = false;
    await retry.click();
    await expect(fresh.getByRole('heading', {level: 1})).toHaveText('SDK');
    await fresh.close();
  });

  test('a route preload that fails reloads the page instead of breaking', async ({page}) => {
    await openPage(page, '/');
    // Fail every script until the browser asks for the Billing document again (the reload).
    let failScripts = true;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.url().endsWith('/account-management/billing')) {
        failScripts = false;
      }
    });
    await page.route('**/assets/js/*.js', (route) => (failScripts ? route.abort('failed') : route.continue()));
    const reload = page.waitForRequest((request) => request.isNavigationRequest() && request.url().endsWith('/account-management/billing'));
    await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: 'Billing'}).click();
    await reload;
    await waitForHydration(page);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Billing');
  });

  test('the base URL warning banner appears when the site cannot load its assets', async ({page}) => {
    await page.route('**/assets/**', (route) => route.abort('failed'));
    await page.goto('/');
    const banner = page.locator('#__docusaurus-base-url-issue-banner');
    await expect(banner).toBeVisible();
    await expect(banner).toContainText('did not load properly');
    await expect(banner).toContainText('We suggest trying baseUrl = /');
  });

  test('the progress bar appears only when navigation takes longer than 200 ms', async ({page}) => {
    await openPage(page, '/');
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/assets/js/*.js', async (route) => {
      await held;
      await route.continue();
    });
    const startedAt = Date.now();
    await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: 'Changelog'}).click();
    await expect(page.locator('#nprogress')).toBeAttached();
    const appearedAfter = Date.now() - startedAt;
    expect(appearedAfter).toBeGreaterThanOrEqual(200);
    release();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Changelog');
    await expect(page.locator('#nprogress')).not.toBeAttached();
  });

  test('a fast (preloaded) navigation shows no progress bar', async ({page}) => {
    await openPage(page, '/');
    await page.evaluate(async () => {
      await window.docusaurus.preload('/additional/changelog');
    });
    await page.evaluate(() => {
      const observer = new MutationObserver(() => {
        if (document.getElementById('nprogress')) {
          document.documentElement.dataset.sawProgressBar = 'true';
        }
      });
      observer.observe(document.body, {childList: true, subtree: true});
    });
    await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: 'Changelog'}).click();
    await expect(page.getByRole('heading', {level: 1})).toHaveText('Changelog');
    await expect(page.locator('html')).not.toHaveAttribute('data-saw-progress-bar', 'true');
  });
});
