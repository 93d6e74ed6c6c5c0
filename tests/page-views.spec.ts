/**
 * Page-view counting (issue 5) against the production build. The served build is reached as
 * http://docs.test:<port> through a Chromium host-resolver rule, so the shipped script (which stays
 * silent on localhost) is the one under test; the collector is intercepted with page.route.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import type {Page, Request, Route} from '@playwright/test';

import {launchOptions, port} from '../playwright.config';
import {ANALYTICS, SITE} from '../src/constants/site';
import {expect, openPage, test} from './support/fixtures';

const host = 'docs.test';
const origin = `http://${host}:${port}`;

test.use({
  baseURL: origin,
  launchOptions: {...launchOptions, args: [...launchOptions.args, `--host-resolver-rules=MAP ${host} 127.0.0.1`]},
});

type PageView = {name: string; url: string; domain: string; referrer: string | null; props: Record<string, string>};

/** Intercepts the collector: records every event body and answers as `respond` says. */
async function collect(page: Page, respond: (route: Route) => Promise<void> = (route) => route.fulfill({status: 202, body: 'ok'})) {
  const events: PageView[] = [];
  const requests: Request[] = [];
  await page.route(`**${ANALYTICS.collectorUrl}`, async (route) => {
    requests.push(route.request());
    events.push(JSON.parse(route.request().postData() ?? 'null') as PageView);
    await respond(route);
  });
  return {events, requests, paths: () => events.map((event) => new URL(event.url).pathname)};
}

/** Waits for the page-views script to have run (it is deferred, like the app bundle). */
async function scriptLoaded(page: Page) {
  await expect.poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/js/page-views.js')))).toBe(true);
}

/** Client-side navigation through the sidebar; returns when the new page's title is shown. */
async function clickSidebar(page: Page, label: string) {
  await page.locator('.theme-doc-sidebar-container').getByRole('link', {name: label, exact: true}).click();
  await expect(page.locator('article h1').first()).toHaveText(label);
}

const quiet = (ms = 600) => new Promise((resolve) => setTimeout(resolve, ms));

test.describe('page views (issue 5)', () => {
  test('first load plus three client-side navigations send exactly four page views, with the right paths and payload', async ({page}) => {
    const {events, requests, paths} = await collect(page);
    await openPage(page, '/');
    await expect.poll(paths).toEqual(['/']);
    expect(await page.evaluate(() => window.docusaurus !== undefined)).toBe(true);
    const navigationsBefore = await page.evaluate(() => performance.getEntriesByType('navigation').length);

    await clickSidebar(page, 'Quick start');
    await clickSidebar(page, 'Main concepts');
    await clickSidebar(page, 'Authentication');
    await expect.poll(paths).toEqual(['/', '/getting-started/quick-start', '/getting-started/main-concepts', '/getting-started/authentication']);
    // Client-side: still the same document.
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(navigationsBefore);

    await quiet();
    expect(events).toHaveLength(4);
    for (const event of events) {
      expect(event).toEqual({
        name: 'pageview',
        url: expect.stringMatching(new RegExp(`^${origin}/`)),
        domain: new URL(SITE.url).host,
        referrer: null,
        props: {viewport: 'desktop', colorMode: 'light'},
      });
    }
    for (const request of requests) {
      expect(request.method()).toBe('POST');
      expect(request.url()).toBe(`${origin}${ANALYTICS.collectorUrl}`);
    }
  });

  test('hash links within a page send nothing; back and forward count as navigations', async ({page}) => {
    const {paths} = await collect(page);
    await openPage(page, '/getting-started/quick-start');
    await expect.poll(paths).toEqual(['/getting-started/quick-start']);
    const tocLinks = page.locator('.table-of-contents a');
    await expect(tocLinks.first()).toBeVisible();
    await tocLinks.nth(0).click();
    await tocLinks.nth(1).click();
    await expect(page).toHaveURL(/#/);
    await page.evaluate(() => history.replaceState(null, '', location.pathname + '#replaced'));
    await quiet();
    expect(paths()).toEqual(['/getting-started/quick-start']);

    await clickSidebar(page, 'SDK');
    await page.goBack(); // → hash of quick-start
    await expect(page).toHaveURL(/quick-start#/);
    await page.goForward(); // → SDK
    await expect(page).toHaveURL(/\/basics\/sdk$/);
    await expect.poll(paths).toEqual(['/getting-started/quick-start', '/basics/sdk', '/getting-started/quick-start', '/basics/sdk']);
    await quiet();
    expect(paths()).toHaveLength(4);
  });

  test('sends no query string, no hash, no search query, only the referrer origin; mobile and dark are reported', async ({page}) => {
    const {events, requests} = await collect(page);
    await page.setViewportSize({width: 800, height: 900});
    await page.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
    await page.goto('/basics/sdk?token=secret-token#install', {referer: 'http://elsewhere.test/some/path?q=private'});
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toEqual({
      name: 'pageview',
      url: `${origin}/basics/sdk`,
      domain: new URL(SITE.url).host,
      referrer: 'http://elsewhere.test',
      props: {viewport: 'mobile', colorMode: 'dark'},
    });
    // The search page: its path counts, the query typed by the reader never leaves the browser.
    await page.goto('/search?q=my%20private%20question');
    await expect.poll(() => events.length).toBe(2);
    expect(events[1].url).toBe(`${origin}/search`);
    const bodies = requests.map((request) => request.postData() ?? '').join('\n');
    expect(bodies).not.toMatch(/secret|install|private|question|\/some\/path/);
    expect(await page.context().cookies()).toEqual([]);
    const headers = await requests[0].allHeaders();
    expect(headers.cookie).toBeUndefined();
  });

  for (const [label, initScript] of [
    ['Do Not Track', () => Object.defineProperty(Navigator.prototype, 'doNotTrack', {get: () => '1'})],
    ['Global Privacy Control', () => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', {get: () => true})],
  ] as const) {
    test(`${label} on: nothing is sent`, async ({page}) => {
      const {requests} = await collect(page);
      await page.addInitScript(initScript);
      await openPage(page, '/');
      await scriptLoaded(page);
      await clickSidebar(page, 'Quick start');
      await clickSidebar(page, 'SDK');
      await quiet();
      expect(requests).toHaveLength(0);
    });
  }

  test('served from 127.0.0.1: nothing is sent', async ({page}) => {
    const {requests} = await collect(page);
    await openPage(page, `http://127.0.0.1:${port}/`);
    await scriptLoaded(page);
    await clickSidebar(page, 'Quick start');
    await quiet();
    expect(requests).toHaveLength(0);
  });
});

/**
 * Chromium itself writes one "Failed to load resource: …" line (a network log, not a console.error
 * call) for every request that fails, beacons included; no page script can suppress it. Here that
 * line is allowed only when Chromium attributes it to the collector URL; any other console error,
 * page error or unhandled rejection still fails the test (fixture + this check).
 */
function collectorNetworkLogs(page: Page) {
  const collectorLines: string[] = [];
  const otherErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const fromCollector = message.text().startsWith('Failed to load resource: ') && message.location().url === `${origin}${ANALYTICS.collectorUrl}`;
    (fromCollector ? collectorLines : otherErrors).push(`${message.text()} @ ${message.location().url}`);
  });
  return {collectorLines, otherErrors};
}

test.describe('page views never get in the way (issue 5)', () => {
  test.use({allowedConsoleErrors: /^Failed to load resource: /});

  const failures: [string, (route: Route) => Promise<void>][] = [
    ['404', (route) => route.fulfill({status: 404, body: 'not found'})],
    ['500', (route) => route.fulfill({status: 500, body: 'boom'})],
    ['network error', (route) => route.abort('failed')],
    ['blocked by an ad blocker', (route) => route.abort('blockedbyclient')],
    ['slow (10 s)', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      await route.fulfill({status: 202, body: 'ok'}).catch(() => undefined);
    }],
  ];
  for (const [label, respond] of failures) {
    test(`collector ${label}: no script error (only Chromium's own network line), one request per view, navigation not delayed`, async ({page}) => {
      const {requests} = await collect(page, respond);
      const logs = collectorNetworkLogs(page);
      await openPage(page, '/');
      await expect.poll(() => requests.length).toBe(1);
      for (const title of ['Quick start', 'SDK', 'Billing']) {
        const started = Date.now();
        await clickSidebar(page, title);
        expect(Date.now() - started, `navigation to ${title}`).toBeLessThan(3_000);
      }
      await expect.poll(() => requests.length).toBe(4);
      await quiet(1_000);
      expect(requests, 'no retries').toHaveLength(4);
      expect(logs.otherErrors).toEqual([]);
      expect(logs.collectorLines.length).toBeLessThanOrEqual(requests.length);
      // The failure-checking fixture fails this test on any console error or page error.
    });
  }

  for (const [label, respond] of failures.slice(0, 3)) {
    test(`fetch fallback (no sendBeacon), collector ${label}: no script error, no unhandled rejection`, async ({page}) => {
      await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'sendBeacon', {value: () => false}));
      const {requests} = await collect(page, respond);
      const logs = collectorNetworkLogs(page);
      const rejections: string[] = [];
      await page.exposeFunction('reportRejection', (reason: string) => rejections.push(reason));
      await page.addInitScript(() =>
        addEventListener('unhandledrejection', (event) => (window as unknown as {reportRejection: (r: string) => void}).reportRejection(String(event.reason))),
      );
      await openPage(page, '/');
      await clickSidebar(page, 'Quick start');
      await expect.poll(() => requests.length).toBe(2);
      expect(requests[0].headers()['content-type']).toContain('text/plain');
      await quiet();
      expect(requests).toHaveLength(2);
      expect(rejections).toEqual([]);
      expect(logs.otherErrors).toEqual([]);
      expect(logs.collectorLines.length).toBeLessThanOrEqual(requests.length);
    });
  }
});

test.describe('the page-views script (issue 5)', () => {
  test('is one small deferred same-origin script under the base URL, not part of the main bundle', async ({page, request}) => {
    await collect(page);
    await openPage(page, '/');
    const script = page.locator('head script[src*="/js/page-views.js"]');
    await expect(script).toHaveCount(1);
    expect(await script.getAttribute('defer')).not.toBeNull();
    const src = (await script.getAttribute('src')) ?? '';
    expect(src).toMatch(new RegExp(`^${SITE.baseUrl}js/page-views\\.js\\?v=[0-9a-f]{10}$`));
    expect(await script.getAttribute('data-api')).toBe(ANALYTICS.collectorUrl);

    // The API request context does not use Chromium's host-resolver rule: fetch it from 127.0.0.1.
    const response = await request.get(`http://127.0.0.1:${port}${src}`);
    expect(response.ok()).toBe(true);
    const body = await response.body();
    const gzip = gzipSync(body, {level: 9}).length;
    test.info().annotations.push({type: 'size', description: `${body.length} B raw, ${gzip} B gzip`});
    expect(gzip).toBeLessThanOrEqual(1536);

    // Its code is in no webpack chunk.
    const assets = path.join(__dirname, '..', 'build', 'assets', 'js');
    const chunksWithIt = readdirSync(assets).filter((file) => readFileSync(path.join(assets, file), 'utf8').includes('globalPrivacyControl'));
    expect(chunksWithIt).toEqual([]);
  });
});
