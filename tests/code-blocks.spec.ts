import type {Locator, Page} from '@playwright/test';
import {expect, openPage, test, waitForHydration} from './support/fixtures';
import {afterFrames, LIGHTHOUSE_DESKTOP, layoutShifts, recordLayoutShifts} from './support/layout-shifts';

// prism-react-renderer's vsDark: plain text #9CDCFE on #1E1E1E.
const VS_DARK_BACKGROUND = [30, 30, 30];

/** What a block shows in a colour mode: vsDark, its tokens coloured from classes, and a copy button on hover. */
async function expectVsDark(page: Page, mode: 'light' | 'dark'): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
  const style = (selector: string, property = 'color') =>
    page
      .locator(selector)
      .first()
      .evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
  const block = page.locator('.theme-code-block').first();
  await expect(block).toBeVisible();
  expect
    .soft(await style('.theme-code-block pre', 'background-color'), `${mode}: background`)
    .toBe(`rgb(${VS_DARK_BACKGROUND.join(', ')})`);
  // src/code-theme/vsDarkAccessible.ts: keyword, string, plain.
  expect.soft(await style('pre.prism-code .token.keyword'), `${mode}: keyword`).toBe('rgb(86, 156, 214)');
  expect.soft(await style('pre.prism-code .token.string'), `${mode}: string`).toBe('rgb(206, 145, 120)');
  expect.soft(await style('pre.prism-code'), `${mode}: plain text`).toBe('rgb(156, 220, 254)');
  expect.soft(await page.locator('pre.prism-code span[style]').count(), `${mode}: inline styles`).toBe(0);
  await block.hover();
  await expect.soft(block.getByRole('button', {name: /copy code/i}), `${mode}: copy button`).toBeVisible();
}

/** Whether one CSS pixel the page shows (a 1×1 screenshot) is off vsDark's background by more than 8 in a channel. */
async function shadedAt(page: Page, x: number, y: number): Promise<boolean> {
  const png = await page.screenshot({
    clip: {x: Math.round(x), y: Math.round(y), width: 1, height: 1},
    scale: 'css',
    animations: 'disabled',
    caret: 'hide',
  });
  return page.evaluate(
    async ({base64, background}) => {
      const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
      const context = new OffscreenCanvas(1, 1).getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const pixel = context.getImageData(0, 0, 1, 1).data;
      return background.some((channel, index) => Math.abs(pixel[index]! - channel) > 8);
    },
    {base64: png.toString('base64'), background: VS_DARK_BACKGROUND},
  );
}

test.describe('code blocks', () => {
  // One load of Quick start and a reload in dark mode; the tab choice then follows to another page.
  test(
    'in light and dark mode the vsDark background, token colours from classes and a copy button; a highlighted line is styled; the copy button copies the code; the chosen language tab is kept across pages and reloads, without a hydration error',
    {tag: '@viewport-independent'},
    async ({page, context}) => {
      await context.grantPermissions(['clipboard-read', 'clipboard-write']);
      await openPage(page, '/getting-started/quick-start');
      await expectVsDark(page, 'light');

      // One line tall, across the block, on the highlighted-line background; the magic comment is gone.
      const highlighted = page.locator('.theme-code-block-highlighted-line').first();
      await expect(highlighted).toBeVisible();
      const box = (await highlighted.boundingBox())!;
      const lineHeight = await highlighted.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
      expect.soft(box.height, 'highlighted line height').toBeCloseTo(lineHeight, 0);
      const background = await highlighted.evaluate((element) => getComputedStyle(element).backgroundColor);
      expect.soft(background, 'highlighted line background').toBe('rgb(17, 17, 17)');
      expect.soft(await page.locator('pre.prism-code', {hasText: 'highlight-next-line'}).count()).toBe(0);

      const block = page.locator('.theme-code-block').first();
      // What the reader sees: the block's rendered text, once in view (code off screen skips rendering).
      await block.scrollIntoViewIfNeeded();
      await expect.poll(() => block.locator('code').innerText()).not.toBe('');
      const code = await block.locator('code').innerText();
      // Its lines, blank ones and trailing spaces left out.
      const lines = (text: string) => text.trimEnd().split(/\s*\n/).filter(Boolean);
      const button = block.getByRole('button', {name: /copy code/i});
      // It says "Copied" only until a timer ends: every name it takes is recorded, so a slow check cannot miss it.
      await button.evaluate((element) => {
        const names: (string | null)[] = [];
        (window as unknown as {copyButtonNames: typeof names}).copyButtonNames = names;
        new MutationObserver(() => names.push(element.getAttribute('aria-label'))).observe(element, {attributes: true});
      });
      await block.hover();
      await button.click();
      await expect
        .poll(async () => lines(await page.evaluate(() => navigator.clipboard.readText())), 'copied code')
        .toEqual(lines(code));
      expect(
        await page.evaluate(() => (window as unknown as {copyButtonNames: string[]}).copyButtonNames),
      ).toContainEqual(expect.stringMatching(/copied/i));

      await page.evaluate(() => window.localStorage.setItem('theme', 'dark'));
      await page.reload();
      await waitForHydration(page);
      await expectVsDark(page, 'dark');

      const [first, last] = [page.locator('.tabs-container').first(), page.locator('.tabs-container').last()];
      const python = (tabs: Locator) => tabs.getByRole('tab', {name: 'Python'});
      await python(first).click();
      await expect(python(first)).toHaveAttribute('aria-selected', 'true');
      // Another tab set of the same group on the page follows at once.
      await expect(python(last)).toHaveAttribute('aria-selected', 'true');
      await openPage(page, '/basics/sdk');
      for (const reloaded of [false, true]) {
        if (reloaded) await page.reload();
        await expect(python(first), `Python chosen (reloaded: ${reloaded})`).toHaveAttribute('aria-selected', 'true');
        await expect(first.locator('[role=tabpanel]:not([hidden])')).toHaveCount(1);
        await expect(first.locator('[role=tabpanel]:not([hidden]) pre')).toHaveClass(/language-python/);
      }
      // The fixture fails the test on any console error, React's hydration errors included.
    },
  );

  // The word-wrap toggle, added after hydration to an overflowing block, must move nothing: no shift, and the buttons
  // keep the server HTML's box (a phone's Chromium does not always report the shift).
  test("the specimen's first block, overflowing in the first screenful: nothing shifts and its buttons keep the server HTML's box when its word-wrap toggle appears; it shades the edge where code is hidden, following the scroll, and no edge once wrapped", async ({
    browser,
    page,
    isMobile,
  }) => {
    if (!isMobile) await page.setViewportSize(LIGHTHOUSE_DESKTOP);
    const buttons = (target: Page) =>
      target
        .getByRole('button', {name: /copy code/i})
        .first()
        .locator('..');
    const staticPage = await browser.newPage({javaScriptEnabled: false, viewport: page.viewportSize()});
    await staticPage.goto('/design-specimen');
    const serverBox = (await buttons(staticPage).boundingBox())!;
    await staticPage.close();

    await recordLayoutShifts(page);
    await openPage(page, '/design-specimen');
    const block = page.locator('.theme-code-block').first();
    const pre = block.locator('pre');
    await expect(block).toBeInViewport();
    expect(await pre.evaluate((element) => element.scrollWidth > element.clientWidth), 'it overflows').toBe(true);
    const wrapToggle = block.getByRole('button', {name: 'Toggle word wrap'});
    await expect(wrapToggle).toBeAttached();
    await afterFrames(page, 2);
    expect.soft(await layoutShifts(page), 'layout shifts').toEqual([]);
    // Not its height: the toggle's taller icon may add some below, which moves nothing (the group is over the code).
    const {x, y, width} = (await buttons(page).boundingBox())!;
    expect.soft({x, y, width}, "the buttons' box").toEqual({x: serverBox.x, y: serverBox.y, width: serverBox.width});

    // Just inside each side, in the block's top padding, where no text is drawn (a titled block: square corners).
    const edges = async () => {
      const box = (await pre.boundingBox())!;
      return {
        left: await shadedAt(page, box.x + 3, box.y + 4),
        right: await shadedAt(page, box.x + box.width - 3, box.y + 4),
      };
    };
    await expect.poll(edges).toEqual({left: false, right: true});
    await pre.evaluate((element) => element.scrollTo({left: (element.scrollWidth - element.clientWidth) / 2}));
    await expect.poll(edges).toEqual({left: true, right: true});
    await pre.evaluate((element) => element.scrollTo({left: element.scrollWidth}));
    await expect.poll(edges).toEqual({left: true, right: false});
    // Wrapped, nothing is hidden: no shade.
    await wrapToggle.click();
    await expect.poll(edges).toEqual({left: false, right: false});
  });

  test('the word-wrap toggle is offered exactly where a block overflows, once in view: in every tab once shown, and after a resize', async ({
    page,
  }) => {
    // Bounds a hang: every block of every tab is scrolled to and waited for.
    test.setTimeout(180_000);
    await openPage(page, '/getting-started/quick-start');
    // Every shown block, once in view: offered exactly where it overflows (polled per frame up to a bound on a hang).
    const expectOfferedWhereOverflowing = async () => {
      const wrong = await page.locator('.theme-code-block:visible').evaluateAll(async (blocks) => {
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        const state = (block: Element) => {
          const pre = block.querySelector('pre')!;
          return {
            overflowing: pre.scrollWidth > pre.clientWidth,
            offered: !!block.querySelector('button[aria-label="Toggle word wrap"]'),
          };
        };
        for (const [index, block] of blocks.entries()) {
          block.scrollIntoView({block: 'center', behavior: 'instant'});
          const deadline = performance.now() + 15_000;
          let shown;
          do {
            await frame();
            shown = state(block);
          } while (shown.offered !== shown.overflowing && performance.now() < deadline);
          if (shown.offered !== shown.overflowing) return {block: index + 1, ...shown};
        }
        return undefined;
      });
      expect(wrong, 'a block whose word-wrap toggle does not match its overflow').toBeUndefined();
    };
    // The page's language tabs are synced: choosing one in the first group shows it in every group.
    const tabs = page.locator('.tabs-container').first().getByRole('tab');
    let overflowing = 0;
    for (let index = 0; index < (await tabs.count()); index += 1) {
      await tabs.nth(index).click();
      await expectOfferedWhereOverflowing();
      overflowing += await page
        .locator('.theme-code-block:visible pre')
        .evaluateAll((pres) => pres.filter((pre) => pre.scrollWidth > pre.clientWidth).length);
    }
    expect(overflowing, 'some block overflows, so the toggle is seen offered').toBeGreaterThan(0);
    // Narrower, more blocks overflow; each gets its toggle without a reload, once scrolled to.
    await page.setViewportSize({width: 320, height: 700});
    await expectOfferedWhereOverflowing();
    // Wider, just enough for the narrowest overflowing block to fit: its toggle goes on the resize alone.
    const {narrowest, fittingWidth} = await page.locator('.theme-code-block:visible').evaluateAll((blocks) => {
      const hidden = blocks.map((block) => {
        const pre = block.querySelector('pre')!;
        return pre.scrollWidth > pre.clientWidth ? pre.scrollWidth - pre.clientWidth : Infinity;
      });
      const index = hidden.indexOf(Math.min(...hidden));
      blocks[index]!.scrollIntoView({block: 'center', behavior: 'instant'});
      return {narrowest: index, fittingWidth: window.innerWidth + hidden[index]! + 8};
    });
    const block = page.locator('.theme-code-block:visible').nth(narrowest);
    await expect(block.getByRole('button', {name: 'Toggle word wrap'})).toBeAttached();
    await page.setViewportSize({width: fittingWidth, height: 700});
    await expect(block).toBeInViewport();
    expect(
      await block.locator('pre').evaluate((pre) => pre.scrollWidth > pre.clientWidth),
      'the block fits once wider',
    ).toBe(false);
    await expect(block.getByRole('button', {name: 'Toggle word wrap'})).toHaveCount(0);
  });
});
