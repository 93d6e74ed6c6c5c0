// A recording collector for the analytics events. The shipped script is silent on localhost, so the build is reached
// as http://docs.test:<port> (a Chromium host-resolver rule); the collector path is intercepted with page.route.
import {expect, type Page, type Request, type Route} from '@playwright/test';

import {launchOptions, port} from '../../playwright.config';
import {ANALYTICS} from '../../src/constants/site';

const HOST = 'docs.test';
export const ORIGIN = `http://${HOST}:${port}`;

/** test.use() settings that open the build under ORIGIN. */
export const underPublicHost = {
  baseURL: ORIGIN,
  launchOptions: {...launchOptions, args: [...launchOptions.args, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`]},
};

/** The event `name` as the collector receives it when sent from `path` of a page opened directly (no referrer). */
export function collected(name: string, path: string, props: Record<string, unknown>) {
  return {name, url: `${ORIGIN}${path}`, domain: ANALYTICS.domain, referrer: null as string | null, props};
}

/** Records every event sent to the collector; `respond` answers the index-th one (default 202). */
export async function recordEvents(
  page: Page,
  respond: (route: Route, index: number) => Promise<void> = (route) => route.fulfill({status: 202, body: 'ok'}),
) {
  const events: ReturnType<typeof collected>[] = [];
  const requests: Request[] = [];
  await page.route(`**${ANALYTICS.collectorUrl}`, async (route) => {
    requests.push(route.request());
    events.push(JSON.parse(route.request().postData() ?? 'null') as (typeof events)[number]);
    await respond(route, requests.length - 1);
  });
  return {
    events,
    requests,
    paths: () => events.map((event) => new URL(event.url).pathname),
    custom: () => events.filter((event) => event.name !== 'pageview'),
    searches: () => events.filter((event) => event.name.startsWith('Search')),
  };
}

/** "Nothing more is coming": a marker sent through the page's `window.plausible` arrives behind every earlier event. */
export async function barrier(page: Page, recorded: Awaited<ReturnType<typeof recordEvents>>): Promise<void> {
  const marker = `Test barrier ${Math.random()}`;
  await page.evaluate((name) => (window as unknown as {plausible: (name: string) => void}).plausible(name), marker);
  const isMarker = (event: {name: string}) => event.name === marker;
  await expect.poll(() => recorded.events.some(isMarker)).toBe(true);
  recorded.events.splice(recorded.events.findIndex(isMarker), 1);
}

/**
 * Counts, in the page, each sendBeacon and fetch call for the collector and each such fetch settled (the script calls
 * them synchronously: once a navigation has rendered its count is final). `beaconRefused` makes sendBeacon return
 * false, so the script falls back to fetch. Also installs the page clock (flushTimers) and marks when the script ran.
 */
export async function spySends(page: Page, {beaconRefused = false} = {}) {
  await page.addInitScript(
    ({collector, refuse}) => {
      const sends = {beacon: 0, fetch: 0, fetchSettled: 0};
      const w = Object.assign(window, {__pageViewSends: sends, __pageViewsScriptRan: false});
      // A script's load event fires once it has run; load does not bubble, so listen in the capture phase.
      const markRun = ({target}: Event) => {
        if (target instanceof HTMLScriptElement && target.src.includes('/js/page-views.js'))
          w.__pageViewsScriptRan = true;
      };
      document.addEventListener('load', markRun, true);
      const isCollector = (input: unknown) =>
        URL.parse(input instanceof Request ? input.url : String(input), location.href)?.pathname === collector;
      const sendBeacon = Navigator.prototype.sendBeacon;
      Navigator.prototype.sendBeacon = function (url, data) {
        if (!isCollector(url)) return sendBeacon.call(this, url, data);
        sends.beacon += 1;
        return !refuse && sendBeacon.call(this, url, data);
      };
      const fetch = window.fetch;
      window.fetch = function (this: unknown, input, init) {
        const result = fetch.call(this, input, init);
        if (!isCollector(input)) return result;
        sends.fetch += 1;
        // A promise that settles like fetch's own: a rejection the caller leaves unhandled stays unhandled.
        return result.finally(() => (sends.fetchSettled += 1));
      };
    },
    {collector: ANALYTICS.collectorUrl, refuse: beaconRefused},
  );
  // Fake timers (they still run on real time): flushTimers() can fire every pending one at once.
  await page.clock.install();
  return () => page.evaluate(() => ({...(window as unknown as {__pageViewSends: object}).__pageViewSends}));
}

/** "Nothing more is coming": fires every timer the page schedules within a minute, then waits for idle and a frame. */
export async function flushTimers(page: Page) {
  await page.clock.runFor(60_000);
  await page.evaluate(
    () => new Promise((resolve) => requestIdleCallback(() => requestAnimationFrame(() => resolve(null)))),
  );
}

/** Waits for the page-views script to have run (it is deferred, like the app bundle). Needs spySends(). */
export async function scriptLoaded(page: Page) {
  await expect
    .poll(() => page.evaluate(() => (window as unknown as {__pageViewsScriptRan: boolean}).__pageViewsScriptRan))
    .toBe(true);
}

/** Client-side navigation through the (desktop) sidebar; returns when the new page's title is shown. */
export async function clickSidebar(page: Page, label: string) {
  await page.locator('.theme-doc-sidebar-container').getByRole('link', {name: label, exact: true}).click();
  await expect(page.locator('article h1').first()).toHaveText(label);
}
