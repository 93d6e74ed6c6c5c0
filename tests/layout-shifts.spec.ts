import type {Page} from '@playwright/test';

import {expect, openPage, test} from './support/fixtures';
import {
  afterFrames,
  checkDeepAnchorLands,
  LIGHTHOUSE_DESKTOP,
  lastShown,
  layoutShifts,
  recordLayoutShifts,
} from './support/layout-shifts';

test.describe('layout while pages load', () => {
  test('a link to a deep anchor lands on its heading and stays there, and nothing moves as the page loads', async ({
    page,
  }) => {
    await checkDeepAnchorLands(page);
  });

  // The word-wrap toggle is offered only where a block overflows, and this sample overflows a phone's width.
  test(
    'an overflowing code block far below the fold has its word-wrap toggle when scrolled to',
    {tag: '@phone-only'},
    async ({page}) => {
      await openPage(page, '/getting-started/main-concepts');
      const last = lastShown(page.locator('.theme-code-block'));
      await last.scrollIntoViewIfNeeded();
      await expect(last.getByRole('button', {name: 'Toggle word wrap'})).toBeVisible();
      expect(
        await last.locator('pre').evaluate((element) => element.scrollWidth > element.clientWidth),
        'this sample overflows a phone',
      ).toBe(true);
    },
  );

  // Each page's load without a layout shift is checked on the load tests/routes.spec.ts checks the page on.

  // The theme adds the word-wrap toggle after hydration, and only to blocks whose lines overflow. A writer's
  // long command near the top of a page must not move the block's buttons when it appears.
  test('an overflowing code block in the first screenful keeps its buttons in place when its word-wrap toggle appears', async ({
    page,
    isMobile,
  }) => {
    if (!isMobile) {
      await page.setViewportSize(LIGHTHOUSE_DESKTOP);
    }
    await recordLayoutShifts(page);
    await openPage(page, '/design-specimen');
    const block = page.locator('.theme-code-block').first();
    await expect(block).toBeInViewport();
    expect(
      await block.locator('pre').evaluate((element) => element.scrollWidth > element.clientWidth),
      'the specimen block overflows',
    ).toBe(true);
    await expect(block.getByRole('button', {name: 'Toggle word wrap'})).toBeAttached();
    await afterFrames(page, 2);
    expect(await layoutShifts(page)).toEqual([]);
  });

  // The same, measured: the buttons' group has the box the server HTML gave it (on a phone Chromium does not
  // always report the shift above).
  test("a code block's buttons keep the server HTML's box when its word-wrap toggle appears", async ({
    browser,
    page,
  }) => {
    const group = (target: Page) =>
      target
        .locator('.theme-code-block')
        .first()
        .getByRole('button', {name: /copy code/i})
        .locator('..');
    const noScript = await browser.newContext({javaScriptEnabled: false});
    const staticPage = await noScript.newPage();
    await staticPage.goto('/design-specimen');
    const serverBox = await group(staticPage).boundingBox();
    await noScript.close();

    await openPage(page, '/design-specimen');
    await expect(
      page.locator('.theme-code-block').first().getByRole('button', {name: 'Toggle word wrap'}),
    ).toBeAttached();
    // Where it starts and how wide it is; the toggle's taller icon may add height below, which moves nothing
    // (the group is positioned over the code).
    const {x, y, width} = (await group(page).boundingBox())!;
    expect({x, y, width}).toEqual({x: serverBox!.x, y: serverBox!.y, width: serverBox!.width});
  });
});
