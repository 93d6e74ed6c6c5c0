/**
 * A recording collector for the analytics events, and the host name that lets the shipped script
 * send them. The build is reached as http://docs.test:<port> through a Chromium host-resolver rule
 * (the script is silent on localhost, as tests/page-views.spec.ts explains); the collector path is
 * intercepted with page.route, which records each event body and answers as asked.
 */
import {expect, type Page, type Route} from '@playwright/test';

import {launchOptions, port} from '../../playwright.config';
import {ANALYTICS} from '../../src/constants/site';

export const HOST = 'docs.test';
export const ORIGIN = `http://${HOST}:${port}`;

/** test.use() settings that open the build under ORIGIN. */
export const underPublicHost = {
  baseURL: ORIGIN,
  launchOptions: {...launchOptions, args: [...launchOptions.args, `--host-resolver-rules=MAP ${HOST} 127.0.0.1`]},
};

export type CollectedEvent = {
  name: string;
  url: string;
  domain: string;
  referrer: string | null;
  props?: Record<string, unknown>;
};

/** Records every event sent to the collector; `respond` answers it (default 202). */
export async function recordEvents(
  page: Page,
  respond: (route: Route) => Promise<void> = (route) => route.fulfill({status: 202, body: 'ok'}),
) {
  const events: CollectedEvent[] = [];
  await page.route(`**${ANALYTICS.collectorUrl}`, async (route) => {
    events.push(JSON.parse(route.request().postData() ?? 'null') as CollectedEvent);
    await respond(route);
  });
  return {
    events,
    /** Every event but page views, in the order sent. */
    custom: () => events.filter((event) => event.name !== 'pageview'),
  };
}

/**
 * Deterministic "nothing more is coming": a marker event sent through the page's own
 * `window.plausible` after everything else goes out behind any event sent before it, so once it has
 * arrived the list of earlier events is complete. Removes the marker from the list.
 */
export async function barrier(page: Page, recorded: Awaited<ReturnType<typeof recordEvents>>): Promise<void> {
  const marker = `Test barrier ${Math.random()}`;
  await page.evaluate((name) => (window as unknown as {plausible: (name: string) => void}).plausible(name), marker);
  await expect.poll(() => recorded.events.some((event) => event.name === marker)).toBe(true);
  recorded.events.splice(
    recorded.events.findIndex((event) => event.name === marker),
    1,
  );
}
