/**
 * Page-view counting against the production build. The served build is reached as
 * http://docs.test:<port> through a Chromium host-resolver rule, so the shipped script (which stays
 * silent on localhost) is the one under test; the collector is intercepted with page.route.
 */
import {readdirSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {gzipSync} from 'node:zlib';
import type {Page, Request, Route} from '@playwright/test';

import {launchOptions, port} from '../playwright.config';
import {ANALYTICS, SITE} from '../src/constants/site';
import {loadBudgets} from './support/bytes';
import {expect, openPage, test} from './support/fixtures';

const host = 'docs.test';
const origin = `http://${host}:${port}`;

test.use({
  baseURL: origin,
  launchOptions: {...launchOptions, args: [...launchOptions.args, `--host-resolver-rules=MAP ${host} 127.0.0.1`]},
});

type PageView = {name: string; url: string; domain: string; referrer: string | null; props: Record<string, string>};

/** Intercepts the collector: records every event body and answers as `respond` says. */
async function collect(
  page: Page,
  respond: (route: Route) => Promise<void> = (route) => route.fulfill({status: 202, body: 'ok'}),
) {
  const events: PageView[] = [];
  const requests: Request[] = [];
  await page.route(`**${ANALYTICS.collectorUrl}`, async (route) => {
    requests.push(route.request());
    events.push(JSON.parse(route.request().postData() ?? 'null') as PageView);
    await respond(route);
  });
  return {events, requests, paths: () => events.map((event) => new URL(event.url).pathname)};
}

/**
 * Intercepts the collector and holds every request, unanswered, until the test calls
 * `answerWith`: from then on held and later requests get that answer. Never called: they stay
 * pending for the whole test (unrouted at its end).
 */
async function holdCollector(page: Page) {
  const requests: Request[] = [];
  const held: Route[] = [];
  let answer: ((route: Route) => Promise<void>) | undefined;
  const state = {answered: 0};
  const reply = async (route: Route, respond: (route: Route) => Promise<void>) => {
    await respond(route);
    state.answered += 1;
  };
  await page.route(`**${ANALYTICS.collectorUrl}`, async (route) => {
    requests.push(route.request());
    if (answer) {
      await reply(route, answer);
    } else {
      held.push(route);
    }
  });
  return {
    requests,
    paths: () =>
      requests.map((request) => new URL((JSON.parse(request.postData() ?? 'null') as PageView).url).pathname),
    answered: () => state.answered,
    async answerWith(respond: (route: Route) => Promise<void>) {
      answer = respond;
      await Promise.all(held.splice(0).map((route) => reply(route, respond)));
    },
  };
}

type Sends = {beacon: number; fetch: number; fetchSettled: number};

/**
 * Counts, in the page, every hand-over of an event to the browser: each navigator.sendBeacon and
 * window.fetch call for the collector URL, and each such fetch that has settled. The script calls
 * them synchronously inside its pushState / popstate hook, so once a navigation has rendered the
 * count for it is final. `beaconRefused` makes sendBeacon refuse (return false), as browsers do
 * when it is unavailable or over quota, so the script falls back to fetch.
 */
async function spySends(page: Page, {beaconRefused = false} = {}) {
  await page.addInitScript(
    ({collector, refuse}) => {
      const sends = {beacon: 0, fetch: 0, fetchSettled: 0};
      (window as unknown as {__pageViewSends: Sends}).__pageViewSends = sends;
      // A script's load event fires once it has run; load does not bubble, so listen in the capture phase.
      const w = window as unknown as {__pageViewsScriptRan: boolean};
      w.__pageViewsScriptRan = false;
      document.addEventListener(
        'load',
        (event) => {
          const target = event.target as HTMLScriptElement | null;
          if (target?.tagName === 'SCRIPT' && target.src.includes('/js/page-views.js')) w.__pageViewsScriptRan = true;
        },
        true,
      );
      const isCollector = (input: unknown) => {
        try {
          const url = input instanceof Request ? input.url : String(input);
          return new URL(url, location.href).pathname === collector;
        } catch {
          return false;
        }
      };
      const sendBeacon = Navigator.prototype.sendBeacon;
      Object.defineProperty(Navigator.prototype, 'sendBeacon', {
        configurable: true,
        writable: true,
        value: function (this: Navigator, url: string | URL, data?: BodyInit | null) {
          if (!isCollector(url)) return sendBeacon.call(this, url, data);
          sends.beacon += 1;
          return refuse ? false : sendBeacon.call(this, url, data);
        },
      });
      const fetch = window.fetch;
      window.fetch = function (this: unknown, input: RequestInfo | URL, init?: RequestInit) {
        const result = fetch.call(this, input, init);
        if (!isCollector(input)) return result;
        sends.fetch += 1;
        // The caller gets a promise that settles like fetch's own: a rejection it leaves unhandled stays unhandled.
        return result.then(
          (response) => ((sends.fetchSettled += 1), response),
          (error: unknown) => {
            sends.fetchSettled += 1;
            throw error;
          },
        );
      } as typeof window.fetch;
    },
    {collector: ANALYTICS.collectorUrl, refuse: beaconRefused},
  );
  // Fake timers (they still run on real time): flushTimers() can fire every pending one at once.
  await page.clock.install();
  return () => page.evaluate(() => ({...(window as unknown as {__pageViewSends: Sends}).__pageViewSends}));
}

/**
 * Deterministic "nothing more is coming": fires every timer, interval and idle callback the page
 * has scheduled (or schedules) within the next minute, then waits for an idle period and a frame.
 * A send the script had deferred, retried or queued would have been made by then.
 */
async function flushTimers(page: Page) {
  await page.clock.runFor(60_000);
  await page.evaluate(
    () => new Promise((resolve) => requestIdleCallback(() => requestAnimationFrame(() => resolve(null)))),
  );
}

/** Waits for the page-views script to have run (it is deferred, like the app bundle). Needs spySends(). */
async function scriptLoaded(page: Page) {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as {__pageViewsScriptRan: boolean}).__pageViewsScriptRan))
    .toBe(true);
}

/** Client-side navigation through the sidebar; returns when the new page's title is shown. */
async function clickSidebar(page: Page, label: string) {
  await page.locator('.theme-doc-sidebar-container').getByRole('link', {name: label, exact: true}).click();
  await expect(page.locator('article h1').first()).toHaveText(label);
}

// What is sent is the script's decision, the same at any width (the viewport it reports is checked
// by resizing, below), and these tests navigate with the desktop sidebar: run once.
test.describe('page views', {tag: '@viewport-independent'}, () => {
  test('first load plus three client-side navigations send exactly four page views, with the right paths and payload', async ({
    page,
  }) => {
    const {events, requests, paths} = await collect(page);
    const sends = await spySends(page);
    await openPage(page, '/');
    await expect.poll(paths).toEqual(['/']);
    expect(await page.evaluate(() => window.docusaurus !== undefined)).toBe(true);
    const navigationsBefore = await page.evaluate(() => performance.getEntriesByType('navigation').length);

    await clickSidebar(page, 'Quick start');
    await clickSidebar(page, 'Main concepts');
    await clickSidebar(page, 'Authentication');
    await expect
      .poll(paths)
      .toEqual([
        '/',
        '/getting-started/quick-start',
        '/getting-started/main-concepts',
        '/getting-started/authentication',
      ]);
    // Client-side: still the same document.
    expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(navigationsBefore);
    // Sent synchronously with each navigation: exactly four hand-overs, and no more after every timer has run.
    expect(await sends()).toEqual({beacon: 4, fetch: 0, fetchSettled: 0});
    await flushTimers(page);
    expect(await sends()).toEqual({beacon: 4, fetch: 0, fetchSettled: 0});
    // Barrier: one more navigation yields exactly one more event, for its own path, right after the
    // four (a duplicate or a retry queued behind them would show up before or with it).
    await clickSidebar(page, 'SDK');
    await expect
      .poll(paths)
      .toEqual([
        '/',
        '/getting-started/quick-start',
        '/getting-started/main-concepts',
        '/getting-started/authentication',
        '/basics/sdk',
      ]);
    expect(await sends()).toEqual({beacon: 5, fetch: 0, fetchSettled: 0});
    expect(events).toHaveLength(5);
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
    const sends = await spySends(page);
    await openPage(page, '/getting-started/quick-start');
    await expect.poll(paths).toEqual(['/getting-started/quick-start']);
    const tocLinks = page.locator('.table-of-contents a');
    await expect(tocLinks.first()).toBeVisible();
    await tocLinks.nth(0).click();
    await tocLinks.nth(1).click();
    await expect(page).toHaveURL(/#/);
    await page.evaluate(() => history.replaceState(null, '', location.pathname + '#replaced'));
    await expect(page).toHaveURL(/#replaced$/);
    // The script decides synchronously in its pushState hook: nothing was handed over, nor after every timer has run.
    await flushTimers(page);
    expect(await sends()).toEqual({beacon: 1, fetch: 0, fetchSettled: 0});

    // Barrier: the next real navigation's event is the second one the collector sees.
    await clickSidebar(page, 'SDK');
    await expect.poll(paths).toEqual(['/getting-started/quick-start', '/basics/sdk']);
    await page.goBack(); // → hash of quick-start
    await expect(page).toHaveURL(/quick-start#/);
    await page.goForward(); // → SDK
    await expect(page).toHaveURL(/\/basics\/sdk$/);
    await expect
      .poll(paths)
      .toEqual(['/getting-started/quick-start', '/basics/sdk', '/getting-started/quick-start', '/basics/sdk']);
    await flushTimers(page);
    expect(await sends()).toEqual({beacon: 4, fetch: 0, fetchSettled: 0});
    // Barrier: one more navigation, exactly one more event, right after the four.
    await clickSidebar(page, 'Billing');
    await expect
      .poll(paths)
      .toEqual([
        '/getting-started/quick-start',
        '/basics/sdk',
        '/getting-started/quick-start',
        '/basics/sdk',
        '/account-management/billing',
      ]);
    expect(await sends()).toEqual({beacon: 5, fetch: 0, fetchSettled: 0});
  });

  test('sends no query string, no hash, no search query, only the referrer origin; mobile and dark are reported', async ({
    page,
  }) => {
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

  // Each signal's getter counts its reads in the page: the script's consent check is seen to run.
  for (const [label, initScript] of [
    [
      'Do Not Track',
      () => {
        const w = window as unknown as {__consentReads: number};
        w.__consentReads = 0;
        Object.defineProperty(Navigator.prototype, 'doNotTrack', {get: () => ((w.__consentReads += 1), '1')});
      },
    ],
    [
      'Global Privacy Control',
      () => {
        const w = window as unknown as {__consentReads: number};
        w.__consentReads = 0;
        Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', {
          get: () => ((w.__consentReads += 1), true),
        });
      },
    ],
  ] as const) {
    test(`${label} on: nothing is sent`, async ({page}) => {
      const {requests} = await collect(page);
      const sends = await spySends(page);
      await page.addInitScript(initScript);
      const consentReads = () => page.evaluate(() => (window as unknown as {__consentReads: number}).__consentReads);
      await openPage(page, '/');
      await scriptLoaded(page);
      // The script ran and checked the signal for the first view.
      expect(await consentReads()).toBeGreaterThanOrEqual(1);
      const readsAtLoad = await consentReads();
      await clickSidebar(page, 'Quick start');
      await clickSidebar(page, 'SDK');
      // …and again for each navigation (synchronously, in its pushState hook), deciding to send nothing.
      expect(await consentReads()).toBeGreaterThanOrEqual(readsAtLoad + 2);
      await flushTimers(page);
      expect(await sends()).toEqual({beacon: 0, fetch: 0, fetchSettled: 0});
      expect(requests).toHaveLength(0);
    });
  }

  test('served from 127.0.0.1: nothing is sent', async ({page}) => {
    const {requests} = await collect(page);
    const sends = await spySends(page);
    await openPage(page, `http://127.0.0.1:${port}/`);
    await scriptLoaded(page);
    await clickSidebar(page, 'Quick start');
    await clickSidebar(page, 'SDK');
    await flushTimers(page);
    expect(await sends()).toEqual({beacon: 0, fetch: 0, fetchSettled: 0});
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
    const fromCollector =
      message.text().startsWith('Failed to load resource: ') &&
      message.location().url === `${origin}${ANALYTICS.collectorUrl}`;
    (fromCollector ? collectorLines : otherErrors).push(`${message.text()} @ ${message.location().url}`);
  });
  return {collectorLines, otherErrors};
}

test.describe('page views never get in the way', {tag: '@viewport-independent'}, () => {
  test.use({allowedConsoleErrors: /^Failed to load resource: /});

  const failures: [string, ((route: Route) => Promise<void>) | undefined][] = [
    ['404', (route) => route.fulfill({status: 404, body: 'not found'})],
    ['500', (route) => route.fulfill({status: 500, body: 'boom'})],
    ['network error', (route) => route.abort('failed')],
    ['blocked by an ad blocker', (route) => route.abort('blockedbyclient')],
    // Slow: never answered while the test runs (held until the page is closed).
    ['that never answers', undefined],
  ];
  for (const [label, respond] of failures) {
    test(`collector ${label}: no script error (only Chromium's own network line), one request per view, navigation does not wait for it`, async ({
      page,
    }) => {
      const collector = await holdCollector(page);
      const sends = await spySends(page);
      const logs = collectorNetworkLogs(page);
      await openPage(page, '/');
      await expect.poll(() => collector.requests.length).toBe(1);
      let views = 1;
      for (const title of ['Quick start', 'SDK', 'Billing']) {
        // Every collector request so far is held, unanswered; the navigation still completes…
        await clickSidebar(page, title);
        views += 1;
        // …after its own view had been handed to the browser, with no collector response given yet.
        expect(await sends(), `after navigating to ${title}`).toEqual({beacon: views, fetch: 0, fetchSettled: 0});
        expect(collector.answered(), `collector responses before ${title} rendered`).toBe(0);
      }
      await expect.poll(() => collector.requests.length).toBe(4);
      expect(collector.answered()).toBe(0);

      if (respond) {
        await collector.answerWith(respond);
        expect(collector.answered()).toBe(4);
      }
      // No retries: none made synchronously, none scheduled on a timer…
      await flushTimers(page);
      expect(await sends(), 'no retries').toEqual({beacon: 4, fetch: 0, fetchSettled: 0});
      // …and none queued on the network: one more navigation gives exactly one more request, the fifth.
      await clickSidebar(page, 'Main concepts');
      await expect.poll(() => collector.requests.length).toBe(5);
      expect(collector.paths()).toEqual([
        '/',
        '/getting-started/quick-start',
        '/basics/sdk',
        '/account-management/billing',
        '/getting-started/main-concepts',
      ]);
      if (respond) {
        await expect.poll(collector.answered).toBe(5);
      } else {
        expect(collector.answered()).toBe(0);
      }
      expect(await sends()).toEqual({beacon: 5, fetch: 0, fetchSettled: 0});
      expect(logs.otherErrors).toEqual([]);
      expect(logs.collectorLines.length).toBeLessThanOrEqual(collector.requests.length);
      // The failure-checking fixture fails this test on any console error or page error.
      await page.unrouteAll({behavior: 'ignoreErrors'});
    });
  }

  for (const [label, respond] of failures.slice(0, 3) as [string, (route: Route) => Promise<void>][]) {
    test(`fetch fallback (no sendBeacon), collector ${label}: no script error, no unhandled rejection`, async ({
      page,
    }) => {
      const sends = await spySends(page, {beaconRefused: true});
      const {requests} = await collect(page, respond);
      const logs = collectorNetworkLogs(page);
      await page.addInitScript(() => {
        const rejections: string[] = [];
        (window as unknown as {__rejections: string[]}).__rejections = rejections;
        addEventListener('unhandledrejection', (event) => rejections.push(String(event.reason)));
      });
      const rejections = () => page.evaluate(() => (window as unknown as {__rejections: string[]}).__rejections);
      await openPage(page, '/');
      await clickSidebar(page, 'Quick start');
      await expect.poll(() => requests.length).toBe(2);
      expect(requests[0].headers()['content-type']).toContain('text/plain');
      // sendBeacon refused, fetch used once per view; both fetches have settled (the failure reached the page).
      await expect.poll(sends).toEqual({beacon: 2, fetch: 2, fetchSettled: 2});
      // No retry after the failure, immediate or on a timer…
      await flushTimers(page);
      expect(await sends()).toEqual({beacon: 2, fetch: 2, fetchSettled: 2});
      // …nor on the network: one more navigation gives exactly one more request, the third.
      await clickSidebar(page, 'SDK');
      await expect.poll(() => requests.length).toBe(3);
      expect(new URL(JSON.parse(requests[2].postData() ?? 'null').url).pathname).toBe('/basics/sdk');
      await expect.poll(sends).toEqual({beacon: 3, fetch: 3, fetchSettled: 3});
      expect(await rejections()).toEqual([]);
      expect(logs.otherErrors).toEqual([]);
      expect(logs.collectorLines.length).toBeLessThanOrEqual(requests.length);
    });
  }
});

test.describe('the page-views script', {tag: '@viewport-independent'}, () => {
  test('is one small deferred same-origin script under the base URL, not part of the main bundle', async ({
    page,
    request,
  }) => {
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
    expect(gzip).toBeLessThanOrEqual(loadBudgets().analyticsScript);

    // Its code is in no webpack chunk.
    const assets = path.join(__dirname, '..', 'build', 'assets', 'js');
    const chunksWithIt = readdirSync(assets).filter((file) =>
      readFileSync(path.join(assets, file), 'utf8').includes('globalPrivacyControl'),
    );
    expect(chunksWithIt).toEqual([]);
  });
});
