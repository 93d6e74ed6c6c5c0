import {expect, openPage, test} from './support/fixtures';
import {colourDistance, pixelAt, type Rgb} from './support/pixels';

// prism-react-renderer's vsDark: plain text #9CDCFE on #1E1E1E.
const VS_DARK_BACKGROUND = 'rgb(30, 30, 30)';
const VS_DARK_BACKGROUND_RGB: Rgb = [30, 30, 30];

test.describe('code blocks', () => {
  // Everything a block shows in a mode, on one load of the page in that mode.
  for (const mode of ['light', 'dark'] as const) {
    test(
      `in ${mode} mode: the vsDark background, token colours from classes, and a copy button`,
      {tag: '@viewport-independent'},
      async ({page}) => {
        await page.addInitScript((theme) => window.localStorage.setItem('theme', theme), mode);
        await openPage(page, '/getting-started/quick-start');
        await expect(page.locator('html')).toHaveAttribute('data-theme', mode);
        const block = page.locator('.theme-code-block').first();
        await expect(block).toBeVisible();
        const background = await block.locator('pre').evaluate((element) => getComputedStyle(element).backgroundColor);
        expect(background).toBe(VS_DARK_BACKGROUND);
        const colour = (selector: string) =>
          page
            .locator(`pre.prism-code ${selector}`)
            .first()
            .evaluate((element) => getComputedStyle(element).color);
        // src/code-theme/vsDarkAccessible.ts: keyword, string, plain.
        expect(await colour('.token.keyword')).toBe('rgb(86, 156, 214)');
        expect(await colour('.token.string')).toBe('rgb(206, 145, 120)');
        expect(
          await page
            .locator('pre.prism-code')
            .first()
            .evaluate((element) => getComputedStyle(element).color),
        ).toBe('rgb(156, 220, 254)');
        expect(await page.locator('pre.prism-code span[style]').count()).toBe(0);
        await block.hover();
        await expect(block.getByRole('button', {name: /copy code/i})).toBeVisible();
      },
    );
  }

  test(
    'the chosen language tab is kept across pages and reloads, without a hydration error',
    {tag: '@viewport-independent'},
    async ({page}) => {
      await openPage(page, '/getting-started/quick-start');
      const firstTabs = page.locator('.tabs-container').first();
      await firstTabs.getByRole('tab', {name: 'Python'}).click();
      await expect(firstTabs.getByRole('tab', {name: 'Python'})).toHaveAttribute('aria-selected', 'true');
      // Another tab set of the same group on the page follows at once.
      const lastTabs = page.locator('.tabs-container').last();
      await expect(lastTabs.getByRole('tab', {name: 'Python'})).toHaveAttribute('aria-selected', 'true');

      await openPage(page, '/basics/sdk');
      const sdkTabs = page.locator('.tabs-container').first();
      await expect(sdkTabs.getByRole('tab', {name: 'Python'})).toHaveAttribute('aria-selected', 'true');
      await expect(sdkTabs.locator('[role=tabpanel]:not([hidden])')).toHaveCount(1);
      await expect(sdkTabs.locator('[role=tabpanel]:not([hidden]) pre')).toHaveClass(/language-python/);

      await page.reload();
      await expect(page.locator('.tabs-container').first().getByRole('tab', {name: 'Python'})).toHaveAttribute(
        'aria-selected',
        'true',
      );
      await expect(page.locator('.tabs-container').first().locator('[role=tabpanel]:not([hidden]) pre')).toHaveClass(
        /language-python/,
      );
      // The fixture fails the test on any console error, React's hydration errors included.
    },
  );

  test('the copy button copies the code', {tag: '@viewport-independent'}, async ({page, context}) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openPage(page, '/getting-started/quick-start');
    const block = page.locator('.theme-code-block').first();
    // What the reader sees: the block's rendered text, once in view (code off screen skips rendering).
    await block.scrollIntoViewIfNeeded();
    await expect.poll(() => block.locator('code').innerText()).not.toBe('');
    const code = await block.locator('code').innerText();
    const lines = (text: string) =>
      text
        .split('\n')
        .map((line) => line.trimEnd())
        .filter(Boolean);
    const button = block.getByRole('button', {name: /copy code/i});
    // The button says "Copied" only until a timer ends: every name it takes is recorded, so a slow check cannot miss it.
    await button.evaluate((element) => {
      const names: (string | null)[] = [];
      (window as unknown as {copyButtonNames: typeof names}).copyButtonNames = names;
      new MutationObserver(() => names.push(element.getAttribute('aria-label'))).observe(element, {attributes: true});
    });
    await block.hover();
    await button.click();
    await expect
      .poll(async () => lines(await page.evaluate(() => navigator.clipboard.readText())))
      .toEqual(lines(code));
    expect(
      await page.evaluate(() => (window as unknown as {copyButtonNames: string[]}).copyButtonNames),
    ).toContainEqual(expect.stringMatching(/copied/i));
  });

  test('a block whose lines are wider than it shades the edge where code is hidden, following the scroll', async ({
    page,
  }) => {
    await openPage(page, '/design-specimen');
    const block = page.locator('.theme-code-block').first();
    const pre = block.locator('pre');
    // Just inside each side, in the block's top padding, where no text is drawn (a titled block: square corners).
    const edges = async () => {
      const box = (await pre.boundingBox())!;
      const left = await pixelAt(page, box.x + 3, box.y + 4);
      const right = await pixelAt(page, box.x + box.width - 3, box.y + 4);
      return {
        left: colourDistance(left, VS_DARK_BACKGROUND_RGB) > 8,
        right: colourDistance(right, VS_DARK_BACKGROUND_RGB) > 8,
      };
    };
    expect(await pre.evaluate((element) => element.scrollWidth > element.clientWidth), 'it overflows').toBe(true);
    await expect.poll(edges).toEqual({left: false, right: true});
    await pre.evaluate((element) => element.scrollTo({left: (element.scrollWidth - element.clientWidth) / 2}));
    await expect.poll(edges).toEqual({left: true, right: true});
    await pre.evaluate((element) => element.scrollTo({left: element.scrollWidth}));
    await expect.poll(edges).toEqual({left: true, right: false});
    // Wrapped, nothing is hidden: no shade.
    await block.getByRole('button', {name: 'Toggle word wrap'}).click();
    await expect.poll(edges).toEqual({left: false, right: false});
  });

  test('the word-wrap toggle is offered exactly where a block overflows, once in view: in every tab once shown, and after a resize', async ({
    page,
  }) => {
    // Bounds a hang: every block of every tab is scrolled to and waited for.
    test.setTimeout(180_000);
    await openPage(page, '/getting-started/quick-start');
    await page.waitForFunction(() => document.documentElement.dataset.hasHydrated === 'true');
    // Every shown block of the page, once in view (the theme measures a block when it comes into view): offered
    // where its lines are wider than it, and only there. Each block is waited for on its own, frame by frame from the
    // first frame it is in view, so a slow machine's late frames cost time, not the test; a block still wrong after
    // its deadline (a bound on a hang, far above a frame) is named with what it shows.
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
    // Wider again, just enough for the narrowest overflowing block in view to fit: its toggle goes, without
    // scrolling (the resize alone).
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

  test(
    'hydration keeps the server-rendered code: no node of a block is replaced',
    {tag: '@viewport-independent'},
    async ({page}) => {
      await page.addInitScript(() => {
        // Parsed, and the deferred scripts (React) not yet run: remember every node of every block.
        document.addEventListener('readystatechange', () => {
          if (document.readyState !== 'interactive') return;
          const parsed = new WeakSet<Node>();
          for (const block of Array.from(document.querySelectorAll('pre.prism-code'))) {
            const walker = document.createTreeWalker(block);
            for (let node: Node | null = walker.currentNode; node; node = walker.nextNode()) parsed.add(node);
          }
          (window as unknown as {parsedCode: WeakSet<Node>}).parsedCode = parsed;
        });
      });
      await openPage(page, '/getting-started/main-concepts');
      const {tokens, kept} = await page.evaluate(() => {
        const parsed = (window as unknown as {parsedCode: WeakSet<Node>}).parsedCode;
        const all = Array.from(document.querySelectorAll('pre.prism-code .token'));
        return {tokens: all.length, kept: all.filter((node) => parsed.has(node)).length};
      });
      expect(tokens).toBeGreaterThan(500);
      expect(kept).toBe(tokens);
    },
  );

  test(
    'line highlighting is available (a highlighted line is styled)',
    {tag: '@viewport-independent'},
    async ({page}) => {
      await openPage(page, '/getting-started/quick-start');
      const highlighted = page.locator('.theme-code-block-highlighted-line').first();
      await expect(highlighted).toBeVisible();
      // One line tall, across the block, on the highlighted-line background; the magic comment is gone.
      const box = (await highlighted.boundingBox())!;
      const lineHeight = await highlighted.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight));
      expect(box.height).toBeCloseTo(lineHeight, 0);
      expect(await highlighted.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe(
        'rgb(17, 17, 17)',
      );
      expect(await page.locator('pre.prism-code', {hasText: 'highlight-next-line'}).count()).toBe(0);
    },
  );
});
