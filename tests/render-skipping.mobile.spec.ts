import {expect, openPage, test} from './support/fixtures';
import {checkBlocksRenderedOnlyNearViewport, checkDeepAnchorLands, isRendered, lastShown} from './support/render-skipping';

test.describe('render skipping on long pages (phone)', () => {
  test('code blocks and tables far below the fold are skipped until they come near the viewport', async ({page}) => {
    await checkBlocksRenderedOnlyNearViewport(page);
  });

  test('a link to a deep anchor lands on its heading and stays there', async ({page}) => {
    await checkDeepAnchorLands(page);
  });

  test('a skipped code block is sized from its line count, so rendering it moves nothing', async ({page}) => {
    await openPage(page, '/getting-started/main-concepts');
    const pre = lastShown(page.locator('.theme-code-block pre'));
    expect(await isRendered(pre)).toBe(false);
    const skippedHeight = await pre.evaluate((element) => element.getBoundingClientRect().height);
    await pre.scrollIntoViewIfNeeded();
    await expect.poll(() => isRendered(pre)).toBe(true);
    expect(await pre.evaluate((element) => element.getBoundingClientRect().height)).toBeCloseTo(skippedHeight, 0);
  });

  test('an overflowing code block far below the fold gets its word-wrap toggle when scrolled to', async ({page}) => {
    await openPage(page, '/getting-started/main-concepts');
    const last = lastShown(page.locator('.theme-code-block'));
    await last.scrollIntoViewIfNeeded();
    await expect(last.getByRole('button', {name: 'Toggle word wrap'})).toBeVisible();
    expect(await last.locator('pre').evaluate((element) => element.scrollWidth > element.clientWidth), 'this sample overflows a phone').toBe(true);
  });
});
