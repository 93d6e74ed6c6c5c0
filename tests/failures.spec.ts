import type {Browser, Page, Request} from '@playwright/test';
import {expect, openPage, test, waitForHydration} from './support/fixtures';

type Connection = {saveData: boolean; effectiveType: string};
const DATA_SAVER: Connection = {saveData: true, effectiveType: '4g'};
/** An init script: the page sees `value` as navigator.connection (Docusaurus prefetches by it). */
const fakeConnection = (value: Connection) =>
  Object.defineProperty(Navigator.prototype, 'connection', {configurable: true, get: () => value});
const h1 = (page: Page) => page.getByRole('heading', {level: 1});
const sidebarLink = (page: Page, name: string) =>
  page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name});

/** For each path, the script files a fresh load of it downloads and a fresh load of '/' does not (there are some). */
async function chunksOnlyNeededBy(browser: Browser, ...paths: string[]): Promise<string[][]> {
  const scriptsOf = async (target: string) => {
    const page = await browser.newPage();
    // On data saver Docusaurus prefetches no linked page: only the page's own scripts are downloaded.
    await page.addInitScript(fakeConnection, DATA_SAVER);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await openPage(page, target);
    await page.close();
    return scripts;
  };
  const home = await scriptsOf('/');
  const only = [];
  for (const path of paths) {
    only.push((await scriptsOf(path)).filter((script) => !home.includes(script)));
    expect(only.at(-1)!.length, `scripts only ${path} needs`).toBeGreaterThan(0);
  }
  return only;
}

/** Makes the page's requests for `chunks` fail; returns what makes them load again. */
async function failChunks(page: Page, chunks: string[]): Promise<() => void> {
  let failing = true;
  await page.route(
    (url) => chunks.includes(url.pathname),
    (route) => (failing ? route.abort('failed') : route.continue()),
  );
  return () => (failing = false);
}

test.describe('crash page (spec §2, §8)', {tag: '@viewport-independent'}, () => {
  test.use({allowedConsoleErrors: /Crash test: rendering failed on purpose|Simulated upstream timeout/});

  test('shows "Page Error", "This page crashed.", the error and its cause, and "Try again" recovers', async ({
    page,
  }) => {
    await page.goto('/crash-test');
    await expect(page).toHaveTitle('Page Error');
    await expect(h1(page)).toHaveText('This page crashed.');
    await expect(page.getByText('Crash test: rendering failed on purpose')).toBeVisible();
    await expect(page.getByText('Simulated upstream timeout')).toBeVisible();
    await expect(page.getByRole('link', {name: 'Go to the documentation home'})).toHaveAttribute('href', '/');
    await page.evaluate(() => (window.crashTestRecovered = true));
    await page.getByRole('button', {name: 'Try again'}).click();
    await expect(page.getByTestId('crash-test-recovered')).toBeVisible();
  });
});

// The router and Docusaurus's inline script, driven through the desktop sidebar: the same at any width, run once.
test.describe('loading failures (spec §4, §8)', {tag: '@viewport-independent'}, () => {
  // These tests break the network on purpose: the browser logs each refused download.
  test.use({allowedConsoleErrors: /Failed to load resource: net::ERR_FAILED/});

  test('a page chunk that fails to load shows the red box with the error and a Retry button that recovers; a route preload that fails reloads the page instead of breaking', async ({
    page,
    browser,
  }) => {
    const [sdkChunks, billingChunks] = await chunksOnlyNeededBy(browser, '/basics/sdk', '/account-management/billing');
    const sdkLoads = await failChunks(page, sdkChunks);
    await page.goto('/basics/sdk');
    const box = page.getByRole('alert').filter({has: page.getByRole('button', {name: 'Retry'})});
    await expect(box).toBeVisible();
    await expect(box).toContainText(/Loading chunk .+ failed/);
    sdkLoads();
    await box.getByRole('button', {name: 'Retry'}).click();
    await waitForHydration(page);
    await expect(h1(page)).toHaveText('SDK');
    await expect(box).toHaveCount(0);

    // Only Billing's own chunks fail (the search worker loads), until the browser reloads the Billing document.
    const isReload = (request: Request) =>
      request.isNavigationRequest() && request.url().endsWith('/account-management/billing');
    const billingLoads = await failChunks(page, billingChunks);
    page.on('request', (request) => isReload(request) && billingLoads());
    const reload = page.waitForRequest(isReload);
    await sidebarLink(page, 'Billing').click();
    await reload;
    await waitForHydration(page);
    await expect(h1(page)).toHaveText('Billing');
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
    // Page time is a fake clock, paused during the navigations: the test moves it, nothing is timed.
    await page.clock.install();
    await openPage(page, '/');
    const bar = page.locator('#nprogress');
    await page.evaluate(() => {
      const w = Object.assign(window, {__barShown: 0});
      const count = () => (w.__barShown += document.getElementById('nprogress') ? 1 : 0);
      new MutationObserver(count).observe(document.body, {childList: true});
    });
    const barShown = () => page.evaluate(() => (window as unknown as {__barShown: number}).__barShown);
    let release: () => void = () => undefined;
    let held = Promise.resolve();
    await page.route('**/assets/js/*.js', (route) => held.then(() => route.continue()));
    /** Holds the chunks, clicks a sidebar link; returns once the route update (which sets the bar timer) ran. */
    const startNavigation = async (label: string, url: RegExp) => {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
      held = new Promise<void>((resolve) => (release = resolve));
      await sidebarLink(page, label).click();
      await expect(page).toHaveURL(url);
      // React renders the route update in a task posted after the click: one more posted task is after it.
      await page.evaluate(() => {
        const {port1, port2} = new MessageChannel();
        port1.postMessage(null);
        return new Promise((resolve) => (port2.onmessage = () => resolve(null)));
      });
    };

    // Slow navigation: no bar for the first 199 ms, the bar at 200 ms.
    await startNavigation('Changelog', /\/additional\/changelog$/);
    await page.clock.runFor(199);
    await expect(bar).not.toBeAttached();
    expect(await barShown()).toBe(0);
    await page.clock.runFor(1);
    await expect(bar).toBeAttached();
    release();
    await page.clock.resume();
    await expect(h1(page)).toHaveText('Changelog');
    await expect(bar).not.toBeAttached();

    // Fast navigation (done at 199 ms): the bar never shows, even after its 200 ms have passed.
    const shownBefore = await barShown();
    await startNavigation('Quick start', /\/getting-started\/quick-start$/);
    await page.clock.runFor(199);
    release();
    await expect(h1(page)).toHaveText('Quick start');
    await page.clock.runFor(10_000);
    await expect(bar).not.toBeAttached();
    expect(await barShown()).toBe(shownBefore);
  });
});

// Prefetching on hover: a pointer's behaviour (a phone has no hover). Docusaurus also prefetches the links in view.
test.describe('prefetching', {tag: '@desktop-only'}, () => {
  test('linked pages are prefetched, except on data-saver or 2g connections', async ({browser}) => {
    // On `/`, hovers then follows the sidebar's Changelog link: the files prefetched before, and those asked for after.
    const askedOn = async (connection: Connection) => {
      const page = await browser.newPage();
      await page.addInitScript(fakeConnection, connection);
      await page.addInitScript(() => {
        // Recorded as inserted: the loader removes its scripts once loaded.
        const asked: string[] = ((window as unknown as {askedFor: string[]}).askedFor = []);
        new MutationObserver((records) => {
          for (const node of records.flatMap((record) => Array.from(record.addedNodes)))
            if (node instanceof HTMLScriptElement && node.src) asked.push(`script ${new URL(node.src).pathname}`);
            else if (node instanceof HTMLLinkElement && node.relList.contains('prefetch'))
              asked.push(`prefetch ${new URL(node.href).pathname}`);
        }).observe(document, {childList: true, subtree: true});
      });
      const askedFor = () => page.evaluate(() => (window as unknown as {askedFor: string[]}).askedFor);
      await openPage(page, '/');
      const link = sidebarLink(page, 'Changelog');
      await link.hover();
      // Hovering waits for stable frames (the links in view prefetched) and preloads in its event: all is asked for.
      const asked = await askedFor();
      await link.click();
      await expect(h1(page)).toHaveText('Changelog');
      const toFollow = (await askedFor()).slice(asked.length);
      await page.close();
      return {prefetched: asked.filter((file) => file.startsWith('prefetch ')), toFollow};
    };
    const fast = await askedOn({saveData: false, effectiveType: '4g'});
    expect(fast.prefetched.length, 'files prefetched for the links in view').toBeGreaterThan(5);
    // Routes share chunks (their layouts'); each file is asked for once (plugins/bundle/prefetch-once.ts).
    expect(fast.prefetched.length, 'prefetch links, one per file').toBe(new Set(fast.prefetched).size);
    expect(fast.toFollow, 'files Changelog needed that were not asked for before').toEqual([]);
    for (const connection of [DATA_SAVER, {saveData: false, effectiveType: '2g'}]) {
      const slow = await askedOn(connection);
      const on = `on ${JSON.stringify(connection)}`;
      expect(slow.prefetched, on).toEqual([]);
      expect(slow.toFollow.length, `files Changelog needed, asked for when followed ${on}`).toBeGreaterThan(0);
    }
  });
});
