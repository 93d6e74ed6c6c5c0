// Page views from the shipped script, under http://docs.test (tests/support/collector.ts). Consent: analytics-events.
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import type {Page, Route} from '@playwright/test';

import {ANALYTICS, SITE} from '../src/constants/site';
import {ORIGIN, clickSidebar, flushTimers, recordEvents, spySends, underPublicHost} from './support/collector';
import {expect, openPage, test} from './support/fixtures';

test.use(underPublicHost);

// Sidebar labels and their pages, in the order the fetch fallback test visits them.
const PAGES = {
  'Quick start': '/getting-started/quick-start',
  SDK: '/basics/sdk',
  Billing: '/account-management/billing',
  'Main concepts': '/getting-started/main-concepts',
  Authentication: '/getting-started/authentication',
};

/** A page view as the collector receives it; `referrer` is an origin, null for a page opened directly. */
const pageView = (path: string, viewport: string, colorMode: string, referrer: string | null = null) => ({
  name: 'pageview',
  url: `${ORIGIN}${path}`,
  domain: new URL(SITE.url).host,
  referrer,
  props: {viewport, colorMode},
});

// Chromium logs "Failed to load resource: …" for every failed request, beacons too: allowed only from the collector.
function collectorNetworkLogs(page: Page) {
  const logs = {collectorLines: [] as string[], otherErrors: [] as string[]};
  page.on('console', (message) => {
    const [text, {url}] = [message.text(), message.location()];
    if (message.type() !== 'error') return;
    const fromCollector = text.startsWith('Failed to load resource: ') && url === `${ORIGIN}${ANALYTICS.collectorUrl}`;
    (fromCollector ? logs.collectorLines : logs.otherErrors).push(`${text} @ ${url}`);
  });
  return logs;
}

const answered: [string, (route: Route) => Promise<void>][] = [
  ['404', (route) => route.fulfill({status: 404, body: 'not found'})],
  ['500', (route) => route.fulfill({status: 500, body: 'boom'})],
  ['network error', (route) => route.abort('failed')],
  ['blocked by an ad blocker', (route) => route.abort('blockedbyclient')],
];
// Slow: never answered while the test runs (held until the page is closed).
const failures = [...answered, ['never answered', undefined] as const];
const labels = (ways: readonly (readonly [string, unknown])[]) => ways.map(([label]) => label).join(', ');

// The script's decision, the same at any width (the viewport reported is checked by resizing); desktop sidebar: once.
test.describe('page views', {tag: '@viewport-independent'}, () => {
  test('sends no query string, no hash, no search query, only the referrer origin; mobile and dark are reported', async ({
    page,
  }) => {
    const {events, requests} = await recordEvents(page);
    await page.setViewportSize({width: 800, height: 900});
    await page.addInitScript(() => window.localStorage.setItem('theme', 'dark'));
    await page.goto('/basics/sdk?token=secret-token#install', {referer: 'http://elsewhere.test/some/path?q=private'});
    await expect.poll(() => events.length).toBe(1);
    expect(events[0]).toEqual(pageView('/basics/sdk', 'mobile', 'dark', 'http://elsewhere.test'));
    // The search page: its path counts, the query typed by the reader never leaves the browser.
    await page.goto('/search?q=my%20private%20question');
    await expect.poll(() => events.length).toBe(2);
    expect(events[1].url).toBe(`${ORIGIN}/search`);
    const bodies = requests.map((request) => request.postData() ?? '').join('\n');
    expect(bodies).not.toMatch(/secret|install|private|question|\/some\/path/);
    expect(await page.context().cookies()).toEqual([]);
    expect((await requests[0].allHeaders()).cookie).toBeUndefined();
  });

  test("the script's code is in no webpack chunk", () => {
    const assets = path.join(__dirname, '..', 'build', 'assets', 'js');
    const chunksWithIt = readdirSync(assets).filter((file) =>
      readFileSync(path.join(assets, file), 'utf8').includes('globalPrivacyControl'),
    );
    expect(chunksWithIt).toEqual([]);
  });
});

test.describe('page views, whatever the collector answers', {tag: '@viewport-independent'}, () => {
  test.use({allowedConsoleErrors: /^Failed to load resource: /});

  test(`the deferred same-origin script sends one page view per load and client-side navigation (back and forward too), none for hash links; collector ${labels(failures)}: navigation does not wait, no retry, no script error`, async ({
    page,
  }) => {
    // Every request is held, unanswered, until the failures below: navigations still complete, each view handed over.
    const held: Route[] = [];
    const {events, requests, paths} = await recordEvents(page, async (route) => void held.push(route));
    const sends = await spySends(page);
    const logs = collectorNetworkLogs(page);
    await openPage(page, '/');
    await expect.poll(paths).toEqual(['/']);
    expect(await page.evaluate(() => window.docusaurus !== undefined)).toBe(true);
    const script = page.locator('head script[src*="/js/page-views.js"]');
    await expect(script).toHaveCount(1);
    await expect(script, 'deferred').toHaveAttribute('defer');
    await expect(script).toHaveAttribute('src', new RegExp(`^${SITE.baseUrl}js/page-views\\.js\\?v=[0-9a-f]{10}$`));
    await expect(script).toHaveAttribute('data-api', ANALYTICS.collectorUrl);
    const navigations = () => page.evaluate(() => performance.getEntriesByType('navigation').length);
    const navigationsBefore = await navigations();

    await clickSidebar(page, 'Quick start');
    const tocLinks = page.locator('.table-of-contents a');
    await tocLinks.nth(0).click();
    await tocLinks.nth(1).click();
    await expect(page).toHaveURL(/#/);
    await page.evaluate(() => history.replaceState(null, '', location.pathname + '#replaced'));
    await expect(page).toHaveURL(/#replaced$/);
    // The script decides synchronously in its pushState hook: nothing handed over for the hashes, nor after every timer.
    await flushTimers(page);
    expect(await sends(), 'after the hash links').toEqual({beacon: 2, fetch: 0, fetchSettled: 0});

    await clickSidebar(page, 'SDK');
    await page.goBack(); // → hash of quick-start
    await expect(page).toHaveURL(/quick-start#/);
    await page.goForward(); // → SDK
    await expect(page).toHaveURL(/\/basics\/sdk$/);
    await clickSidebar(page, 'Main concepts');
    await clickSidebar(page, 'Authentication');
    const views = ['Quick start', 'SDK', 'Quick start', 'SDK', 'Main concepts', 'Authentication'] as const;
    const expected = ['/', ...views.map((label) => PAGES[label])];
    await expect.poll(paths).toEqual(expected);
    expect(await navigations(), 'same document').toBe(navigationsBefore);
    // Sent synchronously with each navigation: one hand-over each.
    expect(await sends()).toEqual({beacon: expected.length, fetch: 0, fetchSettled: 0});
    // Each request fails a way (in turn): none is retried, synchronously or on any timer…
    await Promise.all(held.map((route, index) => failures[index % failures.length]![1]?.(route)));
    await flushTimers(page);
    expect(await sends(), 'no retries').toEqual({beacon: expected.length, fetch: 0, fetchSettled: 0});
    // …nor queued on the network: one more navigation yields exactly one more event, its own, after the others.
    await clickSidebar(page, 'Billing');
    await expect.poll(paths).toEqual([...expected, PAGES.Billing]);
    expect(await sends()).toEqual({beacon: expected.length + 1, fetch: 0, fetchSettled: 0});
    expect(events).toEqual([...expected, PAGES.Billing].map((path) => pageView(path, 'desktop', 'light')));
    for (const request of requests)
      expect(`${request.method()} ${request.url()}`).toBe(`POST ${ORIGIN}${ANALYTICS.collectorUrl}`);
    expect(logs.otherErrors).toEqual([]);
    expect(logs.collectorLines.length).toBeLessThanOrEqual(held.length);
    // The failure-checking fixture fails this test on any console error or page error.
    await page.unrouteAll({behavior: 'ignoreErrors'});
  });

  test(`fetch fallback (no sendBeacon), collector ${labels(answered)}: no script error, no unhandled rejection, no retry`, async ({
    page,
  }) => {
    const n = answered.length;
    const sends = await spySends(page, {beaconRefused: true});
    // The n-th request fails the n-th way.
    const {requests, paths} = await recordEvents(page, (route, index) => answered[index % n]![1](route));
    const logs = collectorNetworkLogs(page);
    await page.addInitScript(() => {
      const rejections = Object.assign(window, {__rejections: [] as string[]}).__rejections;
      addEventListener('unhandledrejection', (event) => rejections.push(String(event.reason)));
    });
    await openPage(page, '/');
    // '/' and the first n - 1 pages make n views, one per failure; the n-th page is the barrier.
    const tour = Object.keys(PAGES) as (keyof typeof PAGES)[];
    for (const label of tour.slice(0, n - 1)) await clickSidebar(page, label);
    await expect.poll(() => requests.length).toBe(n);
    expect(requests[0].headers()['content-type']).toContain('text/plain');
    // sendBeacon refused, fetch used once per view; every fetch has settled (the failure reached the page).
    await expect.poll(sends).toEqual({beacon: n, fetch: n, fetchSettled: n});
    // No retry after the failure, immediate or on a timer…
    await flushTimers(page);
    expect(await sends(), 'no retries').toEqual({beacon: n, fetch: n, fetchSettled: n});
    // …nor on the network: one more navigation gives exactly one more request.
    await clickSidebar(page, tour[n - 1]!);
    await expect.poll(() => requests.length).toBe(n + 1);
    expect(paths()).toEqual(['/', ...tour.slice(0, n).map((label) => PAGES[label])]);
    await expect.poll(sends).toEqual({beacon: n + 1, fetch: n + 1, fetchSettled: n + 1});
    expect(await page.evaluate(() => (window as unknown as {__rejections: string[]}).__rejections)).toEqual([]);
    expect(logs.otherErrors).toEqual([]);
    expect(logs.collectorLines.length).toBeLessThanOrEqual(requests.length);
  });
});
