/**
 * "Was this page helpful?" at the end of every doc page, against the production build: what the
 * reader sees and can do (mouse, keyboard, phone, both colour modes), that nothing moves, and the
 * exact events the recording collector receives (tests/support/collector.ts: the build is opened
 * as http://docs.test so the shipped analytics script sends).
 */
import type {Page, Route} from '@playwright/test';

import {ANALYTICS} from '../src/constants/site';
import {ORIGIN, barrier, recordEvents, underPublicHost} from './support/collector';
import {seriousAxeViolations} from './support/axe';
import {expect, openPage, test} from './support/fixtures';

test.use(underPublicHost);

const PAGE = '/basics/sdk';
const OTHER_PAGE = '/getting-started/quick-start';

const WIDGET = 'section[aria-label="Page feedback"]';
const widget = (page: Page) => page.getByRole('region', {name: 'Page feedback'});
const status = (page: Page) => widget(page).getByRole('status');
/** What the eye reads (the live region holds the same words, visually hidden). */
const shownText = (page: Page, text: string) => widget(page).getByRole('paragraph').filter({hasText: text});

/** Records every layout shift from now on, including those right after input (which CLS forgives). */
async function watchLayoutShifts(page: Page) {
  await page.evaluate(() => {
    const shifts: string[] = [];
    (window as unknown as {__shifts: string[]}).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        value: number;
        sources: {node?: Node}[];
      }[]) {
        shifts.push(
          `${entry.value}: ${entry.sources.map((source) => (source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node?.nodeName))).join(' | ')}`,
        );
      }
    }).observe({type: 'layout-shift'});
  });
  return async () => {
    // Two frames: a shift caused by the vote's render has been reported by then.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    return page.evaluate(() => (window as unknown as {__shifts: string[]}).__shifts);
  };
}

/** The widget's box and the box of what follows the article (the previous/next links). */
async function boxes(page: Page) {
  const box = await widget(page).boundingBox();
  const next = await page.locator('.pagination-nav').boundingBox();
  return {widget: box, next};
}

test.describe('page feedback', () => {
  test('a Yes sends one Feedback event, thanks the reader in a polite live region, and moves nothing; without JavaScript only its space is reserved', async ({
    page,
    browser,
  }) => {
    const recorded = await recordEvents(page);
    await openPage(page, PAGE);
    const yes = widget(page).getByRole('button', {name: 'Yes'});
    await yes.scrollIntoViewIfNeeded();
    await expect(widget(page).getByText('Was this page helpful?')).toBeVisible();
    await expect(status(page)).toHaveText('');
    const before = await boxes(page);
    const shifts = await watchLayoutShifts(page);

    await yes.click();
    await expect(shownText(page, 'Thanks for your feedback!')).toBeVisible();
    await expect(status(page)).toHaveText('Thanks for your feedback!');
    await expect(status(page)).toHaveAttribute('role', 'status');
    // The buttons are gone (not merely disabled), and focus stays in the widget, not on <body>.
    await expect(widget(page).getByRole('button')).toHaveCount(0);
    await expect(widget(page)).toBeFocused();
    expect(await shifts(), 'layout shifts after the vote').toEqual([]);
    expect(await boxes(page)).toEqual(before);

    await expect.poll(recorded.custom).toEqual([
      {
        name: 'Feedback',
        url: `${ORIGIN}${PAGE}`,
        domain: ANALYTICS.domain,
        referrer: null,
        props: {vote: 'yes', page: PAGE},
      },
    ]);
    await barrier(page, recorded);
    expect(recorded.custom()).toHaveLength(1);

    const context = await browser.newContext({
      javaScriptEnabled: false,
      baseURL: ORIGIN,
    });
    const noJs = await context.newPage();
    await noJs.goto(PAGE);
    const box = noJs.locator(WIDGET);
    await expect(box).toHaveCount(1);
    await expect(noJs.getByRole('button', {name: 'Yes'})).toHaveCount(0);
    await expect(noJs.getByText('Was this page helpful?')).toBeHidden();
    expect((await box.boundingBox())?.height, 'height without JavaScript').toBe(before.widget?.height);
    await context.close();
  });

  for (const mode of ['light', 'dark'] as const) {
    test(`${mode} mode: a No offers reasons; choosing one sends it as its own event, then thanks; nothing moves; no serious axe violation at either step`, async ({
      page,
    }) => {
      await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
      const recorded = await recordEvents(page);
      await openPage(page, PAGE);
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      await widget(page).scrollIntoViewIfNeeded();
      const before = await boxes(page);
      const shifts = await watchLayoutShifts(page);

      await widget(page).getByRole('button', {name: 'No'}).click();
      const reasons = widget(page).getByRole('group', {
        name: 'Thanks! What could be better? (optional)',
      });
      await expect(reasons.getByRole('button')).toHaveText([
        'Inaccurate',
        'Hard to follow',
        'Missing an example',
        'Something else',
      ]);
      await expect(reasons).toBeFocused();
      // The whole page is covered by tests/routes.spec.ts (the first step); here the widget's later steps.
      expect(await seriousAxeViolations(page, {include: WIDGET}), 'reasons step').toEqual([]);
      await expect(status(page)).toContainText('Thanks for your feedback!');
      await expect(widget(page).getByRole('button', {name: 'Yes'})).toHaveCount(0);
      await expect.poll(recorded.custom).toEqual([
        {
          name: 'Feedback',
          url: `${ORIGIN}${PAGE}`,
          domain: ANALYTICS.domain,
          referrer: null,
          props: {vote: 'no', page: PAGE},
        },
      ]);

      await reasons.getByRole('button', {name: 'Missing an example'}).click();
      await expect(shownText(page, 'Thanks, that helps us improve this page.')).toBeVisible();
      await expect(status(page)).toHaveText('Thanks, that helps us improve this page.');
      await expect(widget(page).getByRole('button')).toHaveCount(0);
      await expect(widget(page)).toBeFocused();
      expect(await seriousAxeViolations(page, {include: WIDGET}), 'thanks step').toEqual([]);
      expect(await shifts(), 'layout shifts after the votes').toEqual([]);
      expect(await boxes(page)).toEqual(before);

      await expect.poll(() => recorded.custom().length).toBe(2);
      expect(recorded.custom()[1]).toEqual({
        name: 'Feedback: Reason',
        url: `${ORIGIN}${PAGE}`,
        domain: ANALYTICS.domain,
        referrer: null,
        props: {reason: 'missing-example', page: PAGE},
      });
      await barrier(page, recorded);
      expect(recorded.custom()).toHaveLength(2);
    });
  }

  test(
    'keyboard only: Tab to the buttons, vote with Enter, pick a reason with Space',
    {tag: '@desktop-only'},
    async ({page}) => {
      // A hardware keyboard is a desktop thing.
      const recorded = await recordEvents(page);
      await openPage(page, PAGE);
      const yes = widget(page).getByRole('button', {name: 'Yes'});
      await yes.focus();
      await expect(yes).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(widget(page).getByRole('button', {name: 'No'})).toBeFocused();
      await page.keyboard.press('Enter');
      const reasons = widget(page).getByRole('group', {
        name: /What could be better/,
      });
      await expect(reasons).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(reasons.getByRole('button', {name: 'Inaccurate'})).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(reasons.getByRole('button', {name: 'Hard to follow'})).toBeFocused();
      await page.keyboard.press('Space');
      await expect(status(page)).toHaveText('Thanks, that helps us improve this page.');
      await expect(widget(page)).toBeFocused();
      // Tab goes on from the widget to what follows it, not back to the top of the page.
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('.pagination-nav') !== null)).toBe(true);
      await expect
        .poll(() => recorded.custom().map((event) => event.props))
        .toEqual([
          {vote: 'no', page: PAGE},
          {reason: 'hard-to-follow', page: PAGE},
        ]);
    },
  );

  // What is remembered, and where, is the same at any width: run once (the phone votes in the tests above).
  test(
    'one vote per page per visit: a reload shows the thanks, another page asks again',
    {tag: '@viewport-independent'},
    async ({page}) => {
      const recorded = await recordEvents(page);
      await openPage(page, PAGE);
      await widget(page).getByRole('button', {name: 'Yes'}).click();
      await expect(shownText(page, 'Thanks for your feedback!')).toBeVisible();
      await page.reload();
      await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
      await expect(shownText(page, 'Thanks for your feedback!')).toBeVisible();
      await expect(widget(page).getByRole('button')).toHaveCount(0);
      await openPage(page, OTHER_PAGE);
      await expect(widget(page).getByRole('button', {name: 'Yes'})).toBeVisible();
      await barrier(page, recorded);
      expect(recorded.custom()).toHaveLength(1);
    },
  );

  test(
    'blocked storage: the vote still works and is remembered while the page is open',
    {tag: '@viewport-independent'},
    async ({page}) => {
      await page.addInitScript(() => {
        Object.defineProperty(window, 'sessionStorage', {
          configurable: true,
          get: () => {
            throw new DOMException('The operation is insecure.', 'SecurityError');
          },
        });
      });
      const recorded = await recordEvents(page);
      await openPage(page, PAGE);
      await widget(page).getByRole('button', {name: 'No'}).click();
      await expect(widget(page).getByRole('group', {name: /What could be better/})).toBeVisible();
      await expect.poll(() => recorded.custom().map((event) => event.props)).toEqual([{vote: 'no', page: PAGE}]);
      // Away and back within the app: still answered (kept in memory).
      await page.evaluate((path) => window.history.pushState(null, '', path), OTHER_PAGE);
      await page.goBack();
      await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
      await expect(widget(page)).toBeVisible();
      await expect(widget(page).getByRole('button', {name: 'Yes'})).toHaveCount(0);
    },
  );
});

// A failed request is the script's to absorb, at any width (the widget on a phone: the tests above): run once.
test.describe('a dead collector changes nothing for the reader', {tag: '@viewport-independent'}, () => {
  // Chromium logs its own "Failed to load resource" line for a failed request (not a script error).
  test.use({
    allowedConsoleErrors: /^Failed to load resource: .*(500|ERR_CONNECTION_REFUSED)/,
  });
  const failures: [string, (route: Route) => Promise<void>][] = [
    ['connection refused', (route) => route.abort('connectionrefused')],
    ['500', (route) => route.fulfill({status: 500, body: 'boom'})],
  ];
  test(`collector ${failures.map(([label]) => label).join(', ')}: thanks shown, no script error`, async ({page}) => {
    // The page view refused, the vote 500, the reason refused: each event of the widget meets each failure.
    const recorded = await recordEvents(page, (route, index) => failures[index % failures.length]![1](route));
    const rejections: string[] = [];
    page.on('pageerror', (error) => rejections.push(error.message));
    await openPage(page, PAGE);
    await widget(page).getByRole('button', {name: 'No'}).click();
    await widget(page).getByRole('button', {name: 'Something else'}).click();
    await expect(status(page)).toHaveText('Thanks, that helps us improve this page.');
    await expect.poll(() => recorded.custom().map((event) => event.name)).toEqual(['Feedback', 'Feedback: Reason']);
    expect(rejections).toEqual([]);
  });
});
