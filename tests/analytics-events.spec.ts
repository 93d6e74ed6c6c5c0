// Reader signals beyond page views, sent to the recording collector: settled (masked) search queries, outbound-link and
// file-download clicks, and silence (page views and feedback included) under DNT, GPC and on localhost.
import type {Page} from '@playwright/test';

import {port} from '../playwright.config';
import {ARTIFACTS} from '../src/constants/api';
import {EXTERNAL_LINKS} from '../src/constants/site';
import {
  NO_RESULTS_EVENT,
  SEARCH_EVENT,
  SETTLE_MS,
  createSearchSignals,
  normalizeQuery,
} from '../src/theme/SearchBar/searchSignals';
import {
  ORIGIN,
  barrier,
  clickSidebar,
  collected,
  flushTimers,
  recordEvents,
  scriptLoaded,
  spySends,
  underPublicHost,
} from './support/collector';
import {expect, openPage, test} from './support/fixtures';
import {searchInput, searchListbox, waitForSearchReady} from './support/search';

test.describe('search signals, the rule (Node)', {tag: '@viewport-independent'}, () => {
  test('queries are normalised and masked: lowercased, collapsed, digits and e-mails masked, 60 characters', () => {
    expect(normalizeQuery('  Webhook   SIGNATURE\t ')).toBe('webhook signature');
    expect(normalizeQuery('order 12345 and 67')).toBe('order # and #');
    expect(normalizeQuery('Mail Jane.Doe+x@Example.COM please')).toBe('mail [email] please');
    expect(normalizeQuery('bob@localhost')).toBe('[email]');
    expect(normalizeQuery('@acme-connect/sdk')).toBe('@acme-connect/sdk');
    expect(normalizeQuery('iccid 8944 5000 0000 1234 567')).toBe('iccid # # # # #');
    expect(normalizeQuery('x'.repeat(80))).toHaveLength(60);
    expect(normalizeQuery('   ')).toBe('');
  });

  test('one event per settled query, with the result count and the rank chosen', () => {
    const sent: [string, Record<string, unknown>][] = [];
    let now = 0;
    const signals = createSearchSignals(
      (name, props) => sent.push([name, props]),
      () => now,
    );
    // Typed quickly: every prefix shown, none settled on.
    for (const prefix of ['a', 'au', 'aut', 'auth']) {
      now += 120;
      signals.changed(prefix);
      signals.shown(prefix, 8);
    }
    expect(sent).toEqual([]);
    signals.chosen(3);
    expect(sent).toEqual([[SEARCH_EVENT, {query: 'auth', results: 8, rank: 3}]]);
    // Paused on for SETTLE_MS, then typed on: the paused-on query is reported when it changes.
    signals.changed('sdk');
    signals.shown('sdk', 5);
    now += SETTLE_MS;
    signals.changed('sdk 4');
    expect(sent.at(-1)).toEqual([SEARCH_EVENT, {query: 'sdk', results: 5}]);
    signals.shown('sdk 4', 0);
    signals.left();
    expect(sent.at(-1)).toEqual([NO_RESULTS_EVENT, {query: 'sdk #', results: 0}]);
    // Left before its results were shown: not a settled search. Leaving again reports nothing more.
    signals.changed('refund');
    signals.left();
    signals.left();
    expect(sent).toHaveLength(3);
  });
});

test.use(underPublicHost);

/** Types key by key, as fast as the browser takes keys, until the list is drawn for the whole text (not a prefix). */
async function typeQuickly(page: Page, text: string) {
  const input = searchInput(page);
  await input.evaluate((element: HTMLInputElement) =>
    element.addEventListener('autocomplete:updated', () => (element.dataset.drawnFor = element.value)),
  );
  await input.click();
  await input.pressSequentially(text);
  await expect(input).toHaveAttribute('data-drawn-for', text);
}

/** Waits until the list shows the results for what is in the box; returns how many. */
async function shownResults(page: Page): Promise<number> {
  await expect(searchListbox(page).getByRole('option').first()).toBeVisible();
  return searchListbox(page).getByRole('option').count();
}
const noResultsShown = (page: Page) => expect(searchListbox(page).getByText('No results')).toBeVisible();

const FIXED_TIME = Date.parse('2026-01-01T00:00:00Z');

/** Records the events, opens the home page with search ready, and types `text` into the box. */
async function searchFor(page: Page, text: string) {
  const recorded = await recordEvents(page);
  await openPage(page, '/');
  await waitForSearchReady(page);
  // Date.now stands still (timers still run): typing is "quick" however busy the machine is.
  await page.clock.install();
  await page.clock.setFixedTime(FIXED_TIME);
  await typeQuickly(page, text);
  return recorded;
}

// Each event is its own request: under load the barrier's may arrive first, so expected events are polled for.
test('search events: a result chosen by click or tap reports its rank', async ({page}) => {
  const recorded = await searchFor(page, 'webhook');
  const results = await shownResults(page);
  expect(results).toBeGreaterThan(1);
  await searchListbox(page).getByRole('option').nth(1).click();
  await expect(page).not.toHaveURL(`${ORIGIN}/`);
  await barrier(page, recorded);
  const chosen = collected(SEARCH_EVENT, '/', {query: 'webhook', results, rank: 2});
  await expect.poll(recorded.searches).toEqual([chosen]);
});

// Masking and settling are rules over the typed text, the same at any width: run once.
test(
  `search events: no results is "${NO_RESULTS_EVENT}" with results 0, sent on Escape; leaving the box (blur) settles a query; e-mail addresses and digits are masked before they leave the browser; typed key by key, only a query paused on for a second is reported, when typing goes on; the result chosen with Enter is sent with rank 1`,
  {tag: '@viewport-independent'},
  async ({page}) => {
    const recorded = await searchFor(page, 'Quokka Zeppelin');
    await noResultsShown(page);
    await barrier(page, recorded);
    expect(recorded.searches(), 'before Escape').toEqual([]);
    await page.keyboard.press('Escape');
    await barrier(page, recorded);
    const noResults = collected(NO_RESULTS_EVENT, '/', {query: 'quokka zeppelin', results: 0});
    await expect.poll(recorded.searches, 'no results, on Escape').toEqual([noResults]);
    await searchInput(page).fill('');
    await typeQuickly(page, 'Refund 4521 for Jane.Doe@Example.com');
    // Nothing matches every word; the partial matches on "refund" are listed.
    const shown = await shownResults(page);
    // Blurred directly: on a phone a click on the page may land in the open result list, which covers it.
    await searchInput(page).blur();
    await barrier(page, recorded);
    const refund = collected(SEARCH_EVENT, '/', {query: 'refund # for [email]', results: shown});
    await expect.poll(recorded.searches, 'settled on blur, masked').toEqual([noResults, refund]);
    expect(JSON.stringify(recorded.events), 'nothing personal sent').not.toMatch(/4521|jane|doe/i);
    await searchInput(page).fill('');
    await typeQuickly(page, 'sdk');
    const first = await shownResults(page);
    await page.clock.setFixedTime(FIXED_TIME + SETTLE_MS);
    await searchInput(page).pressSequentially(' install');
    // The list drawn for the whole text, not the one for "sdk" still open (a busy machine draws it later).
    await expect(searchInput(page)).toHaveAttribute('data-drawn-for', 'sdk install');
    await barrier(page, recorded);
    const settled = collected(SEARCH_EVENT, '/', {query: 'sdk', results: first});
    await expect.poll(recorded.searches, 'paused on, then typed on').toEqual([noResults, refund, settled]);
    const second = await shownResults(page);
    const searchedFrom = page.url();
    await page.keyboard.press('Enter');
    // The Search event leaves with the navigation: the barrier must come from the page that follows.
    await page.waitForURL((url) => url.href !== searchedFrom);
    await barrier(page, recorded);
    const chosen = collected(SEARCH_EVENT, '/', {query: 'sdk install', results: second, rank: 1});
    await expect.poll(recorded.searches, 'chosen with Enter').toEqual([noResults, refund, settled, chosen]);
  },
);

const DOWNLOADS_PAGE = '/basics/test-in-postman';

/** Clicks the article's link to `file` and cancels the download it starts. */
async function download(page: Page, file: string) {
  const started = page.waitForEvent('download');
  await page.locator(`article a[href="${file}"]`).click();
  await (await started).cancel();
}

// The external links are in the desktop navbar (on a phone, in its menu: same listener).
test(
  'an external link sends "Outbound Link: Click" with its URL; the Postman and OpenAPI files send "File Download" with theirs; page links send nothing',
  {tag: '@desktop-only'},
  async ({page, context}) => {
    await context.route(`${EXTERNAL_LINKS.website.href}/**`, (route) =>
      route.fulfill({status: 200, contentType: 'text/html', body: '<title>elsewhere</title>'}),
    );
    const recorded = await recordEvents(page);
    await openPage(page, DOWNLOADS_PAGE);
    const popup = page.waitForEvent('popup');
    await page.locator('.navbar').getByRole('link', {name: EXTERNAL_LINKS.website.label}).click();
    await (await popup).close();
    // The outbound event is in before the downloads start: the list below is in the order of the clicks.
    await barrier(page, recorded);
    const files = [ARTIFACTS.postmanCollection, ARTIFACTS.openapi];
    for (const file of files) await download(page, file);
    await barrier(page, recorded);
    expect(recorded.custom()).toEqual([
      collected('Outbound Link: Click', DOWNLOADS_PAGE, {url: `${EXTERNAL_LINKS.website.href}/`}),
      ...files.map((file) => collected('File Download', DOWNLOADS_PAGE, {url: `${ORIGIN}${file}`})),
    ]);
    // An ordinary link to another doc page is a page view, not an event.
    await page.locator('article a[href^="/"]:not([download])').first().click();
    await barrier(page, recorded);
    expect(recorded.custom()).toHaveLength(3);
  },
);

// Decided from the browser's flags and the origin, at any width; the views navigate with the desktop sidebar.
test.describe('nothing is sent when it must not be', {tag: '@viewport-independent'}, () => {
  for (const [label, signal, value] of [
    ['Do Not Track', 'doNotTrack', '1'],
    ['Global Privacy Control', 'globalPrivacyControl', true],
    ['served from 127.0.0.1', undefined, undefined],
  ] as const) {
    test(`${label}: page views, searches, downloads and feedback send nothing, and work as usual`, async ({page}) => {
      const recorded = await recordEvents(page);
      const sends = await spySends(page);
      // The signal's getter counts its reads: the script's consent check is seen to run.
      await page.addInitScript(
        ([name, on]) => {
          const w = Object.assign(window, {__consentReads: 0});
          if (name) Object.defineProperty(Navigator.prototype, name, {get: () => ((w.__consentReads += 1), on)});
        },
        [signal, value] as const,
      );
      const consentReads = () => page.evaluate(() => (window as unknown as {__consentReads: number}).__consentReads);
      await openPage(page, `${signal ? ORIGIN : `http://127.0.0.1:${port}`}${DOWNLOADS_PAGE}`);
      await scriptLoaded(page);
      if (signal) expect(await consentReads(), 'reads for the first view').toBeGreaterThanOrEqual(1);
      await waitForSearchReady(page);
      await typeQuickly(page, 'Quokka Zeppelin');
      await noResultsShown(page);
      await page.keyboard.press('Escape');
      await download(page, ARTIFACTS.openapi);
      const feedback = page.getByRole('region', {name: 'Page feedback'});
      await feedback.getByRole('button', {name: 'No'}).click();
      await feedback.getByRole('button', {name: 'Inaccurate'}).click();
      await expect(feedback.getByRole('status')).toHaveText('Thanks, that helps us improve this page.');
      const readsBefore = await consentReads();
      await clickSidebar(page, 'Quick start');
      await clickSidebar(page, 'SDK');
      // …and again for each navigation (synchronously, in its pushState hook), deciding to send nothing.
      if (signal) expect(await consentReads(), 'reads for the views').toBeGreaterThanOrEqual(readsBefore + 2);
      // The script has taken over window.plausible (it ran, decided, and sent nothing), now or on any timer.
      expect(await page.evaluate(() => 'q' in (window as unknown as {plausible: object}).plausible)).toBe(false);
      await flushTimers(page);
      expect(await sends()).toEqual({beacon: 0, fetch: 0, fetchSettled: 0});
      expect(recorded.events).toEqual([]);
    });
  }
});
