// "Was this page helpful?" on every doc: what the reader sees and does, that nothing moves, the events collected.
import type {Page, Route} from '@playwright/test';

import {ORIGIN, barrier, collected, recordEvents, underPublicHost} from './support/collector';
import {seriousAxeViolations} from './support/axe';
import {expect, openPage, test} from './support/fixtures';
import {afterFrames} from './support/layout-shifts';

test.use(underPublicHost);

const PAGE = '/basics/sdk';
const OTHER_PAGE = '/getting-started/quick-start';
const THANKS = 'Thanks for your feedback!';
const THANKS_FOR_REASON = 'Thanks, that helps us improve this page.';

const WIDGET = 'section[aria-label="Page feedback"]';
const widget = (page: Page) => page.getByRole('region', {name: 'Page feedback'});
const button = (page: Page, name: string) => widget(page).getByRole('button', {name});
const reasons = (page: Page) => widget(page).getByRole('group', {name: /What could be better/});
const status = (page: Page) => widget(page).getByRole('status');
/** What the eye reads (the live region holds the same words, visually hidden). */
const shownText = (page: Page, text: string) => widget(page).getByRole('paragraph').filter({hasText: text});
const boxes = async (page: Page) => ({
  widget: await widget(page).boundingBox(),
  next: await page.locator('.pagination-nav').boundingBox(),
});

// Opens PAGE (events recorded), the widget in view and unanswered; records every layout shift from then on, input's
// too. `thanked` checks the widget after the last vote: `text` shown and announced, no buttons, focus kept, no move.
async function openWidget(page: Page) {
  const recorded = await recordEvents(page);
  await openPage(page, PAGE);
  await widget(page).scrollIntoViewIfNeeded();
  await expect(widget(page).getByText('Was this page helpful?')).toBeVisible();
  await expect(status(page)).toHaveText('');
  const before = await boxes(page);
  await page.evaluate(() => {
    const shifts: string[] = ((window as unknown as {__shifts: string[]}).__shifts = []);
    const describe = (node?: Node) => (node instanceof Element ? node.outerHTML.slice(0, 80) : String(node?.nodeName));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {value: number; sources: {node?: Node}[]}[])
        shifts.push(`${entry.value}: ${entry.sources.map((source) => describe(source.node)).join(' | ')}`);
    }).observe({type: 'layout-shift'});
  });
  const thanked = async (text: string) => {
    await expect(shownText(page, text)).toBeVisible();
    await expect(status(page)).toHaveText(text);
    // The buttons are gone (not merely disabled), and focus stays in the widget, not on <body>.
    await expect(widget(page).getByRole('button')).toHaveCount(0);
    await expect(widget(page)).toBeFocused();
    await afterFrames(page, 2); // a shift the vote's render caused is reported by then
    const shifts = await page.evaluate(() => (window as unknown as {__shifts: string[]}).__shifts);
    expect(shifts, 'layout shifts after the votes').toEqual([]);
    expect(await boxes(page)).toEqual(before);
  };
  return {recorded, before, thanked};
}

test.describe('page feedback', () => {
  test('a Yes sends one Feedback event, thanks the reader in a polite live region, and moves nothing; one vote per page per visit (a reload shows the thanks, another page asks again); without JavaScript only its space is reserved', async ({
    page,
    browser,
  }) => {
    const {recorded, before, thanked} = await openWidget(page);
    await button(page, 'Yes').click();
    await thanked(THANKS);
    await expect(status(page)).toHaveAttribute('role', 'status');
    await expect.poll(recorded.custom).toEqual([collected('Feedback', PAGE, {vote: 'yes', page: PAGE})]);

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
    await expect(shownText(page, THANKS)).toBeVisible();
    await expect(widget(page).getByRole('button')).toHaveCount(0);
    await openPage(page, OTHER_PAGE);
    await expect(button(page, 'Yes')).toBeVisible();
    await barrier(page, recorded);
    expect(recorded.custom()).toHaveLength(1);

    const noJs = await browser.newPage({javaScriptEnabled: false, baseURL: ORIGIN});
    await noJs.goto(PAGE);
    const box = noJs.locator(WIDGET);
    await expect(box).toHaveCount(1);
    await expect(noJs.getByRole('button', {name: 'Yes'})).toHaveCount(0);
    await expect(noJs.getByText('Was this page helpful?')).toBeHidden();
    expect((await box.boundingBox())?.height, 'height without JavaScript').toBe(before.widget?.height);
    await noJs.close();
  });

  for (const mode of ['light', 'dark'] as const) {
    test(`${mode} mode: a No offers reasons; choosing one sends it as its own event, then thanks; nothing moves; no serious axe violation at either step`, async ({
      page,
    }) => {
      await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
      const {recorded, thanked} = await openWidget(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
      await button(page, 'No').click();
      const group = widget(page).getByRole('group', {name: 'Thanks! What could be better? (optional)'});
      const reasonLabels = ['Inaccurate', 'Hard to follow', 'Missing an example', 'Something else'];
      await expect(group.getByRole('button')).toHaveText(reasonLabels);
      await expect(group).toBeFocused();
      // The page's first step: tests/routes.spec.ts; here the widget's later steps.
      expect(await seriousAxeViolations(page, {include: WIDGET}), 'reasons step').toEqual([]);
      await expect(status(page)).toContainText(THANKS);
      await expect(button(page, 'Yes')).toHaveCount(0);
      const vote = collected('Feedback', PAGE, {vote: 'no', page: PAGE});
      await expect.poll(recorded.custom).toEqual([vote]);

      await group.getByRole('button', {name: 'Missing an example'}).click();
      await thanked(THANKS_FOR_REASON);
      expect(await seriousAxeViolations(page, {include: WIDGET}), 'thanks step').toEqual([]);
      const reason = collected('Feedback: Reason', PAGE, {reason: 'missing-example', page: PAGE});
      await expect.poll(recorded.custom).toEqual([vote, reason]);
      await barrier(page, recorded);
      expect(recorded.custom()).toHaveLength(2);
    });
  }

  // A hardware keyboard is a desktop thing.
  test('keyboard: Tab to the buttons, Enter votes, Space picks a reason', {tag: '@desktop-only'}, async ({page}) => {
    const recorded = await recordEvents(page);
    await openPage(page, PAGE);
    await button(page, 'Yes').focus();
    await expect(button(page, 'Yes')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(button(page, 'No')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(reasons(page)).toBeFocused();
    for (const name of ['Inaccurate', 'Hard to follow']) {
      await page.keyboard.press('Tab');
      await expect(reasons(page).getByRole('button', {name})).toBeFocused();
    }
    await page.keyboard.press('Space');
    await expect(status(page)).toHaveText(THANKS_FOR_REASON);
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
  });
});

// Blocked storage and a failed request are the widget's to absorb, at any width.
test.describe('what the reader cannot see changes nothing', {tag: '@viewport-independent'}, () => {
  // Chromium logs its own "Failed to load resource" line for a failed request (not a script error).
  test.use({allowedConsoleErrors: /^Failed to load resource: .*(500|ERR_CONNECTION_REFUSED)/});
  const failures: [string, (route: Route) => Promise<void>][] = [
    ['connection refused', (route) => route.abort('connectionrefused')],
    ['500', (route) => route.fulfill({status: 500, body: 'boom'})],
  ];
  test(`storage blocked, collector ${failures.map(([label]) => label).join(', ')}: the vote works, thanks shown, no script error; the vote is remembered while the page is open`, async ({
    page,
  }) => {
    await page.addInitScript(() => {
      const insecure = () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      };
      Object.defineProperty(window, 'sessionStorage', {configurable: true, get: insecure});
    });
    // The page view refused, the vote 500, the reason refused: each event of the widget meets each failure.
    const recorded = await recordEvents(page, (route, index) => failures[index % failures.length]![1](route));
    await openPage(page, PAGE);
    await button(page, 'No').click();
    await expect(reasons(page)).toBeVisible();
    await button(page, 'Something else').click();
    await expect(status(page)).toHaveText(THANKS_FOR_REASON);
    await expect
      .poll(recorded.custom)
      .toEqual([
        collected('Feedback', PAGE, {vote: 'no', page: PAGE}),
        collected('Feedback: Reason', PAGE, {reason: 'other', page: PAGE}),
      ]);
    // Away and back within the app: still answered (kept in memory).
    await page.evaluate((path) => window.history.pushState(null, '', path), OTHER_PAGE);
    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${PAGE}$`));
    await expect(widget(page)).toBeVisible();
    await expect(button(page, 'Yes')).toHaveCount(0);
  });
});
