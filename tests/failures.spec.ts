import type {Browser} from '@playwright/test';
import {expect, openPage, test, waitForHydration} from './support/fixtures';

/** Makes Docusaurus skip prefetching linked pages (it does so on data-saver connections). */
function pretendDataSaver(): void {
  Object.defineProperty(Navigator.prototype, 'connection', {
    configurable: true,
    get: () => ({saveData: true, effectiveType: '4g'}),
  });
}

// Scripts a fresh load of each path downloads, loaded once per worker ('/' is every test's other path).
const scriptsLoaded = new Map<string, string[]>();

/** Script files a fresh load of `path` downloads and a fresh load of `otherPath` does not. */
async function chunksOnlyNeededBy(browser: Browser, path: string, otherPath: string): Promise<string[]> {
  const load = async (target: string) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.addInitScript(pretendDataSaver);
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await openPage(page, target);
    await context.close();
    return scripts;
  };
  const scriptsOf = async (target: string) =>
    scriptsLoaded.get(target) ?? scriptsLoaded.set(target, await load(target)).get(target)!;
  const [wanted, other] = [await scriptsOf(path), await scriptsOf(otherPath)];
  return wanted.filter((script) => !other.includes(script));
}

test.describe('crash page (spec §2, §8)', () => {
  test.use({allowedConsoleErrors: /Crash test: rendering failed on purpose|Simulated upstream timeout/});

  test('shows "Page Error", "This page crashed.", the error and its cause, and "Try again" recovers', async ({
    page,
  }) => {
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
  // These tests break the network on purpose: the browser logs each refused download.
  test.use({allowedConsoleErrors: /Failed to load resource: net::ERR_FAILED/});

  test('a page chunk that fails to load shows the red box with the error and a Retry button that recovers', async ({
    browser,
  }) => {
    const sdkOnlyChunks = await chunksOnlyNeededBy(browser, '/basics/sdk', '/');
    expect(sdkOnlyChunks.length).toBeGreaterThan(0);
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    let failing = true;
    await page.route(
      (url) => sdkOnlyChunks.includes(url.pathname),
      (route) => (failing ? route.abort('failed') : route.continue()),
    );
    await page.goto('/basics/sdk');
    const box = page.getByRole('alert').filter({has: page.getByRole('button', {name: 'Retry'})});
    await expect(box).toBeVisible();
    await expect(box).toContainText(/Loading chunk .+ failed/);
    expect(errors, 'the failure is handled, not thrown at the page').toEqual([]);
    failing = false;
    await box.getByRole('button', {name: 'Retry'}).click();
    await waitForHydration(page);
    await expect(page.getByRole('heading', {level: 1})).toHaveText('SDK');
    await expect(box).toHaveCount(0);
    await context.close();
  });

  // The router's behaviour, the same at any width (driven through the desktop sidebar): run once.
  test(
    'a route preload that fails reloads the page instead of breaking',
    {tag: '@viewport-independent'},
    async ({page, browser}) => {
      // Only the Billing page's own chunks fail (other scripts, such as the search worker, load).
      const billingChunks = await chunksOnlyNeededBy(browser, '/account-management/billing', '/');
      expect(billingChunks.length).toBeGreaterThan(0);
      await openPage(page, '/');
      // Fail those chunks until the browser asks for the Billing document again (the reload).
      let failScripts = true;
      page.on('request', (request) => {
        if (request.isNavigationRequest() && request.url().endsWith('/account-management/billing')) {
          failScripts = false;
        }
      });
      await page.route(
        (url) => billingChunks.includes(url.pathname),
        (route) => (failScripts ? route.abort('failed') : route.continue()),
      );
      const reload = page.waitForRequest(
        (request) => request.isNavigationRequest() && request.url().endsWith('/account-management/billing'),
      );
      await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: 'Billing'}).click();
      await reload;
      await waitForHydration(page);
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Billing');
    },
  );

  // Docusaurus's inline script, before any asset or layout: the same at any width, run once.
  test(
    'the base URL warning banner appears when the site cannot load its assets',
    {tag: '@viewport-independent'},
    async ({page}) => {
      await page.route('**/assets/**', (route) => route.abort('failed'));
      await page.goto('/');
      const banner = page.locator('#__docusaurus-base-url-issue-banner');
      await expect(banner).toBeVisible();
      await expect(banner).toContainText('did not load properly');
      await expect(banner).toContainText('We suggest trying baseUrl = /');
    },
  );

  // The router's timing, the same at any width (driven through the desktop sidebar): run once.
  test(
    'the progress bar appears only when navigation takes longer than 200 ms',
    {tag: '@viewport-independent'},
    async ({page}) => {
      // Page time is a fake clock, paused during the navigations: the test moves it, nothing is timed.
      await page.clock.install();
      await openPage(page, '/');
      const bar = page.locator('#nprogress');
      await page.evaluate(() => {
        const w = window as unknown as {__barShown: number};
        w.__barShown = 0;
        new MutationObserver(() => {
          if (document.getElementById('nprogress')) w.__barShown += 1;
        }).observe(document.body, {childList: true});
      });
      const barShown = () => page.evaluate(() => (window as unknown as {__barShown: number}).__barShown);
      // The pages' script chunks are held until the test releases them.
      let release: () => void = () => undefined;
      let held = Promise.resolve();
      const hold = () => (held = new Promise<void>((resolve) => (release = resolve)));
      await page.route('**/assets/js/*.js', async (route) => {
        await held;
        await route.continue();
      });
      /** Clicks a sidebar link; returns once the route update (which sets the bar's timer) has run. */
      const startNavigation = async (label: string, url: RegExp) => {
        await page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: label}).click();
        await expect(page).toHaveURL(url);
        // React renders the route update in a task posted after the click: one more posted task is after it.
        await page.evaluate(
          () =>
            new Promise((resolve) => {
              const channel = new MessageChannel();
              channel.port1.onmessage = () => resolve(null);
              channel.port2.postMessage(null);
            }),
        );
      };
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);

      // Slow navigation: no bar for the first 199 ms, the bar at 200 ms.
      hold();
      await startNavigation('Changelog', /\/additional\/changelog$/);
      await page.clock.runFor(199);
      await expect(bar).not.toBeAttached();
      expect(await barShown()).toBe(0);
      await page.clock.runFor(1);
      await expect(bar).toBeAttached();
      release();
      await page.clock.resume();
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Changelog');
      await expect(bar).not.toBeAttached();

      // Fast navigation (done at 199 ms): the bar never shows, even after its 200 ms have passed.
      const shownBefore = await barShown();
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1_000);
      hold();
      await startNavigation('Quick start', /\/getting-started\/quick-start$/);
      await page.clock.runFor(199);
      release();
      await expect(page.getByRole('heading', {level: 1})).toHaveText('Quick start');
      await page.clock.runFor(10_000);
      await expect(bar).not.toBeAttached();
      expect(await barShown()).toBe(shownBefore);
    },
  );

  // Prefetching on hover: a pointer's behaviour (a phone has no hover). Docusaurus also prefetches the links in view.
  test(
    'linked pages are prefetched, except on data-saver or 2g connections',
    {tag: '@desktop-only'},
    async ({browser}) => {
      /**
       * Opens `/` on the connection, hovers the sidebar's Changelog link and returns the files the page asked for
       * (as `script <path>` or `prefetch <path>`), and then those it asked for to follow the link.
       * The desktop sidebar brings every page's link into view (a phone's sidebar is in its closed menu).
       */
      const askedOn = async (connection: {saveData: boolean; effectiveType: string}) => {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.addInitScript((value) => {
          Object.defineProperty(Navigator.prototype, 'connection', {configurable: true, get: () => value});
          // The page asks for a file by inserting a script or a prefetch link; record each as it is inserted (the
          // loader removes its scripts once loaded).
          const asked: string[] = ((window as unknown as {askedFor: string[]}).askedFor = []);
          new MutationObserver((records) => {
            for (const record of records)
              record.addedNodes.forEach((node) => {
                if (node instanceof HTMLScriptElement && node.src) asked.push(`script ${new URL(node.src).pathname}`);
                else if (node instanceof HTMLLinkElement && node.relList.contains('prefetch'))
                  asked.push(`prefetch ${new URL(node.href).pathname}`);
              });
          }).observe(document, {childList: true, subtree: true});
        }, connection);
        const askedFor = () => page.evaluate(() => (window as unknown as {askedFor: string[]}).askedFor);
        await openPage(page, '/');
        const link = page.locator('nav[aria-label="Docs sidebar"]').getByRole('link', {name: 'Changelog'});
        await link.hover();
        // Hovering waits for the link to be stable over animation frames, so the observer's prefetch of the links
        // in view has run, and the hover's own preload runs in its event: whatever was to be asked for has been.
        const beforeFollowing = await askedFor();
        await link.click();
        await expect(page.getByRole('heading', {level: 1})).toHaveText('Changelog');
        const toFollow = (await askedFor()).slice(beforeFollowing.length);
        await context.close();
        return {beforeFollowing, toFollow};
      };
      const fast = await askedOn({saveData: false, effectiveType: '4g'});
      const prefetched = fast.beforeFollowing.filter((asked) => asked.startsWith('prefetch '));
      expect(prefetched.length, 'files prefetched for the links in view').toBeGreaterThan(5);
      // Routes share chunks (their layouts'); each file is asked for once (plugins/bundle/prefetch-once.ts).
      expect(prefetched.length, 'prefetch links, one per file').toBe(new Set(prefetched).size);
      expect(fast.toFollow, 'files Changelog needed that were not asked for before').toEqual([]);
      for (const connection of [
        {saveData: true, effectiveType: '4g'},
        {saveData: false, effectiveType: '2g'},
      ]) {
        const slow = await askedOn(connection);
        const onConnection = `on ${JSON.stringify(connection)}`;
        expect(
          slow.beforeFollowing.filter((asked) => asked.startsWith('prefetch ')),
          onConnection,
        ).toEqual([]);
        expect(slow.toFollow.length, `files Changelog needed, asked for when followed ${onConnection}`).toBeGreaterThan(
          0,
        );
      }
    },
  );
});
