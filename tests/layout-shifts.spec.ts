import {expect, openPage, test} from './support/fixtures';
import {afterFrames, layoutShifts, recordLayoutShifts} from './support/layout-shifts';

// Each page's load without a layout shift is checked on the load tests/routes.spec.ts checks the page on.
test.describe('layout while pages load', () => {
  test('a link to a deep anchor lands on its heading and stays there, and nothing moves as the page loads', async ({
    page,
  }) => {
    await recordLayoutShifts(page);
    await openPage(page, '/getting-started/main-concepts#errors');
    const heading = page.locator('h2#errors');
    // Where the browser puts a fragment target: its scroll-margin below the top (the navbar hides on scroll).
    const wanted = await heading.evaluate((element) => parseFloat(getComputedStyle(element).scrollMarginTop));
    const top = () => heading.evaluate((element) => Math.round(element.getBoundingClientRect().top));
    await expect.poll(async () => Math.abs((await top()) - wanted)).toBeLessThanOrEqual(1);
    // Still there a few frames later, once the blocks above it have their final size.
    const landed = await top();
    await afterFrames(page, 5);
    expect(await top()).toBe(landed);
    expect(await layoutShifts(page), 'layout shifts while the page loads at the anchor').toEqual([]);
  });
});
